import CDRM
import CMarqueeShims
import Glibc
import MarqueeCore

/// Shows video on a KMS plane without a display server: picks a card,
/// connector, mode and CRTC, probes the planes with TEST_ONLY commits and
/// puts the video on the best one (an overlay that scales or can be
/// positioned, else the primary), sets the mode on the first frame, then
/// flips between three dumb buffers the presenter draws into directly (one
/// copy from the decoded frame). SetCrtc + PageFlip on the primary plane
/// where the driver has no atomic modesetting. The CRTC's previous state
/// (the console) is restored when the output goes away.
///
/// Threading: the presenter thread only (VideoOutput's contract).
public final class KMSVideoOutput: ScanOutOutput {
    public let device: DRMDevice
    public let connector: ConnectorInfo
    /// The mode set; a display that comes back without it gets the policy's choice again.
    public internal(set) var mode: DisplayMode
    public let crtc: UInt32
    /// The first mode's size: read by the source thread, so fixed (a display
    /// that comes back in another mode only changes how pictures are scaled there).
    public let screenSize: PixelSize?
    /// The plane the video is on, and what probing found it can do.
    public let plane: PlaneInfo
    public let capabilities: PlaneCapabilities
    public let usesAtomic: Bool
    let options: KMSOptions
    let clock: any HostClock
    private var pool: BufferPool
    /// The previous size's buffers, kept until one of the new ones is on screen.
    private var retiredPool: BufferPool?
    /// Where the current picture goes, for the commit that shows it.
    private var geometry: ScanoutGeometry?
    var hasShownAFrame = false
    /// The next frame sets the mode: the first one, and the first after the display came back.
    var needsModeset = true
    /// False while the screen is switched off (`setScreenPower`): nothing
    /// is committed but that switch, and no modeset happens behind its back.
    var screenOn = true
    let connectorWatch: ConnectorWatch
    /// The framebuffer on screen and where, to put it back on a display that returns while nothing plays.
    var onScreen: (framebuffer: UInt32, geometry: ScanoutGeometry)?
    /// A decoder surface on screen (zero copy): its framebuffer and the frame that owns the surface.
    var importedOnScreen: (framebuffer: PrimeFramebuffer, frame: VideoFrame)?
    let flips: PageFlipEvents
    private let saved: SavedCRTC?
    /// Atomic state: the mode blob, and the objects' properties by name.
    var atomic: AtomicObjects?
    /// Draws each picture into a buffer: placement, orientation, borders.
    private let composer: ScreenComposer
    /// How the video plane reads the YUV buffer it is given next; nil for RGB.
    var yuvColour: ColourDescription?

    /// A flip that has not completed after this long is taken as done (bochs and
    /// virtio-gpu complete at once; a wedged driver must not freeze playback).
    static let flipTimeout = Duration.milliseconds(200)

    public init(options: KMSOptions, clock: any HostClock) throws(KMSError) {
        self.options = options
        self.clock = clock
        composer = ScreenComposer(settings: .init(gravity: options.gravity, rotation: options.rotation, background: options.background))
        let (device, inventory) = try Self.openCard(options)
        self.device = device
        try device.becomeMaster()
        let names = inventory.connectors.map { "\($0.name)\($0.isConnected ? "" : " (disconnected)")" }.joined(separator: ", ")
        let named = options.connector.map { name in inventory.connectors.first { $0.name == name } }
        if let name = options.connector, named == nil {
            throw KMSError(call: "connector", code: ENODEV, device: device.path, detail: "no connector '\(name)' (have: \(names))")
        }
        guard let connector = named ?? inventory.connectors.first(where: \.isConnected), connector.isConnected else {
            throw KMSError.noDisplay("connector", device: device.path, detail: "no connected display (have: \(names))")
        }
        let (mode, crtc) = try connector.modeAndCRTC(options, device: device)
        self.connector = connector
        self.mode = mode
        screenSize = PixelSize(width: mode.width, height: mode.height)
        self.crtc = crtc
        usesAtomic = device.supportsAtomic && !options.forceLegacy
        let planes = inventory.planes.filter { $0.possibleCRTCs.contains(crtc) }
        let atomic = usesAtomic ? try AtomicObjects(device: device, connector: connector.id, crtc: crtc, mode: mode) : nil
        let chosen = try Self.choosePlane(options.plane, among: planes, device: device, atomic: atomic, crtc: crtc, mode: mode)
        self.atomic = chosen.atomic
        plane = chosen.plane
        capabilities = chosen.capabilities
        flips = PageFlipEvents(device: device)
        connectorWatch = ConnectorWatch(device: device, connector: connector.id)
        saved = SavedCRTC(device: device, crtc: crtc, connector: connector.id)
        pool = try BufferPool(device: device, width: mode.width, height: mode.height, fourcc: capabilities.fourcc,
                              primeImport: options.primeImport)
    }

    deinit {
        // Put the console back before our framebuffers go (removing a
        // framebuffer that is being scanned out would switch the CRTC off).
        takeVideoPlaneOff()
        // Legacy SetCrtc does not touch the connector's DPMS: wake it for the console.
        if !screenOn, atomic == nil { try? setDPMS(DRM_MODE_DPMS_ON) }
        saved?.restore()
    }

    public var acceptedFormats: [PixelFormat] { [capabilities.fourcc == marquee_drm_format_nv12() ? .nv12 : .xrgb8888] }
    public var refreshInterval: Duration? { .nanoseconds(Int64(1e9 / max(mode.refreshRate, 1))) }

    /// One line for the log: which plane shows the video and why.
    public var planeSummary: String {
        let can = [capabilities.canScale ? "scales" : "does not scale", capabilities.canPosition ? "positions" : "full screen only"]
        return "\(connector.name) \(mode) on CRTC \(crtc), video on \(plane.kind.rawValue) plane \(plane.id) "
            + "(\(capabilities.format), \(can.joined(separator: ", "))): \(capabilities.strategy.rawValue)"
            + (usesAtomic ? "" : ", legacy modesetting")
    }

    // MARK: Drawing

    public func nextTarget(for frame: VideoFrame) throws -> RenderTarget {
        let layout = composer.layout(for: frame, strategy: capabilities.strategy, screenWidth: mode.width, screenHeight: mode.height)
        geometry = layout.geometry
        try usePool(width: layout.geometry.bufferWidth, height: layout.geometry.bufferHeight)
        let index = pool.nextIndex
        let nv12 = acceptedFormats[0] == .nv12
        yuvColour = nv12 ? Self.planeColour : nil
        return composer.target(for: frame, layout: layout, buffer: pool.buffers[index], index: index,
                               drawn: &pool.drawnRects[index], format: acceptedFormats[0],
                               colour: nv12 ? Self.planeColour : nil)
    }

    /// What a YUV plane reads its buffers as: DRM's defaults for COLOR_ENCODING
    /// and COLOR_RANGE (BT.601, limited), which `DumbBuffer.fill` paints in too.
    static let planeColour = ColourDescription(range: .limited, matrix: .bt601)

    /// Buffers of the size this picture needs (a new item may differ in
    /// size where the plane scales or is positioned).
    private func usePool(width: Int, height: Int) throws(KMSError) {
        guard !pool.matches(width: width, height: height) else { return }
        let next = try BufferPool(device: device, width: width, height: height, fourcc: pool.fourcc, primeImport: options.primeImport)
        if pool.scanningOut != nil { retiredPool = pool }
        pool = next
    }

    public func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime {
        let buffer = pool.buffers[rendered.buffer]
        guard let geometry else { throw KMSError(call: "present", code: EINVAL, device: device.path, detail: "present before nextTarget") }
        composer.finish(into: buffer)
        clock.sleep(until: target)
        let shown = try show(pool.framebuffer(rendered.buffer), geometry)
        pool.scanningOut = rendered.buffer
        retiredPool = nil
        importedOnScreen = nil
        return shown
    }

    public func flush() throws {}

    /// The configured card, or the first card with a connected connector.
    private static func openCard(_ options: KMSOptions) throws(KMSError) -> (DRMDevice, DisplayInventory) {
        let candidates = options.card.map { [$0] } ?? DRMDevice.cards()
        guard !candidates.isEmpty else { throw KMSError(call: "open", code: ENOENT, device: "/dev/dri", detail: "no DRM card") }
        var firstError: KMSError?
        for path in candidates {
            do throws(KMSError) {
                let device = try DRMDevice(path: path, allowAtomic: !options.forceLegacy)
                let inventory = try DisplayInventory(device: device)
                if options.card != nil || inventory.connectors.contains(where: \.isConnected) { return (device, inventory) }
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError ?? KMSError.noDisplay("open", device: candidates.joined(separator: ", "), detail: "no card with a connected display")
    }
}
