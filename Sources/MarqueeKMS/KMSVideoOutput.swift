import CDRM
import CMarqueeShims
import Glibc
import MarqueeCore

/// Shows video on a KMS plane without a display server: picks a card,
/// connector, mode and CRTC, sets the mode on the first frame, then flips
/// between three dumb buffers the presenter draws into directly (one copy
/// from the decoded frame). Atomic commits (tested with TEST_ONLY first) where
/// the driver has them, SetCrtc + PageFlip otherwise. The CRTC's previous
/// state (the console) is restored when the output goes away.
///
/// Threading: the presenter thread only (VideoOutput's contract).
public final class KMSVideoOutput: RenderTargetOutput {
    public let device: DRMDevice
    public let connector: ConnectorInfo
    public let mode: DisplayMode
    public let crtc: UInt32
    public let plane: PlaneInfo
    public let usesAtomic: Bool
    private let options: KMSOptions
    private let clock: any HostClock
    private let fourcc: UInt32
    private var buffers: [DumbBuffer] = []
    /// With `options.primeImport`: each buffer re-imported through a dmabuf, scanned out instead.
    private var primeFramebuffers: [PrimeFramebuffer] = []
    /// Where each buffer's picture was last drawn, so borders are repainted only when it moves.
    private var drawnRects: [PixelRect?]
    private var scanningOut: Int?
    private let flips: PageFlipEvents
    private let saved: SavedCRTC?
    private var modeBlob: ModeBlob?
    private var properties: (connector: PropertySet, crtc: PropertySet, plane: PropertySet)?
    /// Unrotated picture for software rotation (the plane cannot rotate).
    private var scratch: UnsafeMutableRawPointer?
    private var scratchSize = 0
    private var pendingRotation: (rotation: Int, width: Int, height: Int, destination: PixelRect)?

    static let bufferCount = 3
    /// A flip that has not completed after this long is taken as done (bochs and
    /// virtio-gpu complete at once; a wedged driver must not freeze playback).
    static let flipTimeout = Duration.milliseconds(200)

    public init(options: KMSOptions, clock: any HostClock) throws(KMSError) {
        self.options = options
        self.clock = clock
        let (device, inventory) = try Self.openCard(options)
        self.device = device
        try device.becomeMaster()
        let connected = inventory.connectors.filter(\.isConnected)
        guard let connector = options.connector.map({ name in inventory.connectors.first { $0.name == name } })
                ?? connected.first else {
            let names = inventory.connectors.map { "\($0.name)\($0.isConnected ? "" : " (disconnected)")" }.joined(separator: ", ")
            throw KMSError(call: "connector", code: ENODEV, device: device.path,
                           detail: options.connector.map { "no connector '\($0)' (have: \(names))" } ?? "no connected connector (have: \(names))")
        }
        guard let mode = options.mode.choose(from: connector.modes, frameRate: options.frameRate) else {
            throw KMSError(call: "mode", code: EINVAL, device: device.path,
                           detail: "\(connector.name) has no mode \(options.mode) (has: \(connector.modes.map(\.description).joined(separator: ", ")))")
        }
        guard let crtc = connector.currentCRTC ?? connector.possibleCRTCs.first else {
            throw KMSError(call: "crtc", code: ENODEV, device: device.path, detail: "no CRTC can drive \(connector.name)")
        }
        let planes = inventory.planes.filter { $0.possibleCRTCs.contains(crtc) }
        let xrgb = marquee_drm_format_xrgb8888(), nv12 = marquee_drm_format_nv12()
        guard let plane = planes.first(where: { $0.kind == .primary && ($0.supports(xrgb) || $0.supports(nv12)) }) else {
            throw KMSError(call: "plane", code: ENODEV, device: device.path, detail: "no primary plane with XRGB8888 or NV12 for CRTC \(crtc)")
        }
        self.connector = connector
        self.mode = mode
        self.crtc = crtc
        self.plane = plane
        fourcc = plane.supports(xrgb) ? xrgb : nv12
        usesAtomic = device.supportsAtomic && !options.forceLegacy
        flips = PageFlipEvents(device: device)
        saved = SavedCRTC(device: device, crtc: crtc, connector: connector.id)
        drawnRects = Array(repeating: nil, count: Self.bufferCount)
        for _ in 0..<Self.bufferCount {
            buffers.append(try DumbBuffer(device: device, width: mode.width, height: mode.height, fourcc: fourcc))
        }
        if options.primeImport {
            primeFramebuffers = try buffers.map { (buffer) throws(KMSError) in try buffer.primeFramebuffer() }
        }
        if usesAtomic {
            properties = (try PropertySet(device: device, object: connector.id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR)),
                          try PropertySet(device: device, object: crtc, type: UInt32(DRM_MODE_OBJECT_CRTC)),
                          try PropertySet(device: device, object: plane.id, type: UInt32(DRM_MODE_OBJECT_PLANE)))
            modeBlob = try ModeBlob(device: device, mode: mode)
        }
    }

    deinit {
        // Put the console back before our framebuffers go (removing a
        // framebuffer that is being scanned out would switch the CRTC off).
        saved?.restore()
        primeFramebuffers.removeAll()
        scratch?.deallocate()
    }

    public var acceptedFormats: [PixelFormat] { [fourcc == marquee_drm_format_nv12() ? .nv12 : .xrgb8888] }
    public var refreshInterval: Duration? { .nanoseconds(Int64(1e9 / max(mode.refreshRate, 1))) }

    // MARK: Drawing

    public func nextTarget(for frame: VideoFrame) throws -> RenderTarget {
        let index = ((scanningOut ?? -1) + 1) % buffers.count
        let buffer = buffers[index]
        let rotation = ((options.rotation ?? frame.rotation) % 360 + 360) % 360
        let quarter = rotation == 90 || rotation == 270
        let (width, height) = quarter ? (frame.height, frame.width) : (frame.width, frame.height)
        let aspect = quarter ? 1 / frame.sampleAspect : frame.sampleAspect
        let placement = Placement.fit(width: width, height: height, sampleAspect: aspect,
                                      screenWidth: mode.width, screenHeight: mode.height, gravity: options.gravity)
        if drawnRects[index] != placement.destination {
            let colour = options.background
            buffer.fill(red: UInt8(colour >> 16 & 0xff), green: UInt8(colour >> 8 & 0xff), blue: UInt8(colour & 0xff))
            drawnRects[index] = placement.destination
        }
        let destination = placement.destination
        guard rotation != 0 else {
            pendingRotation = nil
            return RenderTarget(buffer: index, planes: buffer.planes(inside: destination), format: acceptedFormats[0],
                                width: destination.width, height: destination.height, crop: crop(placement.source, of: frame))
        }
        // Software rotation: draw upright into scratch memory, turn it in `present`.
        let (uprightWidth, uprightHeight) = quarter ? (destination.height, destination.width) : (destination.width, destination.height)
        let bytes = uprightWidth * uprightHeight * 4
        if bytes > scratchSize {
            scratch?.deallocate()
            scratch = .allocate(byteCount: bytes, alignment: 64)
            scratchSize = bytes
        }
        pendingRotation = (rotation, uprightWidth, uprightHeight, destination)
        return RenderTarget(buffer: index, planes: [MutableImagePlane(base: scratch!, bytesPerRow: uprightWidth * 4, rows: uprightHeight)],
                            format: .xrgb8888, width: uprightWidth, height: uprightHeight)
    }

    private func crop(_ source: PixelRect, of frame: VideoFrame) -> (x: Int, y: Int, width: Int, height: Int)? {
        source.width == frame.width && source.height == frame.height ? nil : (source.x, source.y, source.width, source.height)
    }

    public func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime {
        if let turn = pendingRotation, let scratch {
            SoftwareRotation.rotate(scratch, width: turn.width, height: turn.height, by: turn.rotation,
                                    into: buffers[rendered.buffer].planes(inside: turn.destination)[0])
        }
        let buffer = buffers[rendered.buffer]
        repaintRightBorder(of: buffer, index: rendered.buffer)
        clock.sleep(until: target)
        if scanningOut == nil {
            try setMode(showing: buffer)
            scanningOut = rendered.buffer
            return clock.now()
        }
        try flip(to: buffer)
        let shown = try flips.waitForFlip(timeout: Self.flipTimeout) ?? clock.now()
        scanningOut = rendered.buffer
        return shown
    }

    /// libswscale writes whole SIMD blocks, up to 32 pixels past the end of a
    /// row when the stride allows: put the border back right of the picture.
    private func repaintRightBorder(of buffer: DumbBuffer, index: Int) {
        guard let rect = drawnRects[index], rect.x + rect.width < buffer.width else { return }
        let colour = options.background
        buffer.fill(PixelRect(x: rect.x + rect.width, y: rect.y, width: 32, height: rect.height),
                    red: UInt8(colour >> 16 & 0xff), green: UInt8(colour >> 8 & 0xff), blue: UInt8(colour & 0xff))
    }

    /// Frames in another format: the presenter converts them into `nextTarget` instead.
    public func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime {
        throw KMSError(call: "present", code: EINVAL, device: device.path, detail: "KMS output takes frames through nextTarget")
    }

    public func flush() throws {}

    // MARK: Commits

    /// The first frame: set the mode with it on the plane. TEST_ONLY first so
    /// a configuration the driver refuses is reported without touching the screen.
    private func setMode(showing buffer: DumbBuffer) throws(KMSError) {
        guard usesAtomic, let properties, let modeBlob else {
            var connectorID = connector.id
            var info = mode.modeInfo
            try checkDRM(drmModeSetCrtc(device.fd, crtc, scanout(buffer), 0, 0, &connectorID, 1, &info), "drmModeSetCrtc", device: device.path)
            return
        }
        for flags in [DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET, DRM_MODE_ATOMIC_ALLOW_MODESET] {
            let request = try AtomicRequest(device: device)
            try request.set(connector.id, properties.connector, "CRTC_ID", UInt64(crtc))
            try request.set(crtc, properties.crtc, "MODE_ID", UInt64(modeBlob.id))
            try request.set(crtc, properties.crtc, "ACTIVE", 1)
            try setPlane(request, properties.plane, buffer)
            try request.commit(flags: flags)
        }
    }

    private func flip(to buffer: DumbBuffer) throws(KMSError) {
        guard usesAtomic, let properties else {
            try checkDRM(drmModePageFlip(device.fd, crtc, scanout(buffer), UInt32(DRM_MODE_PAGE_FLIP_EVENT), flips.userData),
                         "drmModePageFlip", device: device.path)
            return
        }
        let request = try AtomicRequest(device: device)
        try setPlane(request, properties.plane, buffer)
        try request.commit(flags: DRM_MODE_ATOMIC_NONBLOCK | Int32(DRM_MODE_PAGE_FLIP_EVENT), userData: flips.userData)
    }

    /// The framebuffer that shows `buffer`: its own, or its PRIME re-import.
    private func scanout(_ buffer: DumbBuffer) -> UInt32 {
        guard let index = buffers.firstIndex(where: { $0 === buffer }), index < primeFramebuffers.count else { return buffer.framebuffer }
        return primeFramebuffers[index].framebuffer
    }

    /// The whole buffer on the whole screen (gravity is drawn into the buffer).
    private func setPlane(_ request: AtomicRequest, _ plane: PropertySet, _ buffer: DumbBuffer) throws(KMSError) {
        let id = self.plane.id
        try request.set(id, plane, "FB_ID", UInt64(scanout(buffer)))
        try request.set(id, plane, "CRTC_ID", UInt64(crtc))
        try request.set(id, plane, "SRC_X", 0)
        try request.set(id, plane, "SRC_Y", 0)
        try request.set(id, plane, "SRC_W", UInt64(buffer.width) << 16)
        try request.set(id, plane, "SRC_H", UInt64(buffer.height) << 16)
        try request.set(id, plane, "CRTC_X", 0)
        try request.set(id, plane, "CRTC_Y", 0)
        try request.set(id, plane, "CRTC_W", UInt64(buffer.width))
        try request.set(id, plane, "CRTC_H", UInt64(buffer.height))
    }

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
        throw firstError ?? KMSError(call: "open", code: ENODEV, device: candidates.joined(separator: ", "), detail: "no card with a connected display")
    }
}
