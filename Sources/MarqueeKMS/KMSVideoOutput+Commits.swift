import CDRM
import CMarqueeShims
import Glibc
import MarqueeCore

/// The KMS objects an atomic commit names, looked up once.
struct AtomicObjects {
    let connector: UInt32
    let crtc: UInt32
    var modeBlob: ModeBlob
    let connectorProperties: PropertySet
    let crtcProperties: PropertySet
    /// The plane the video is on.
    var video: PlaneState?
    /// With the video on an overlay: the primary plane, showing the background colour.
    var background: (plane: PlaneState, buffer: DumbBuffer)?

    init(device: DRMDevice, connector: UInt32, crtc: UInt32, mode: DisplayMode) throws(KMSError) {
        self.connector = connector
        self.crtc = crtc
        modeBlob = try ModeBlob(device: device, mode: mode)
        connectorProperties = try PropertySet(device: device, object: connector, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        crtcProperties = try PropertySet(device: device, object: crtc, type: UInt32(DRM_MODE_OBJECT_CRTC))
    }
}

extension KMSVideoOutput {
    /// The plane for video: the one `request` names, or the best by probing.
    static func choosePlane(_ request: PlaneRequest, among planes: [PlaneInfo], device: DRMDevice, atomic: AtomicObjects?,
                            crtc: UInt32, mode: DisplayMode) throws(KMSError)
        -> (plane: PlaneInfo, capabilities: PlaneCapabilities, atomic: AtomicObjects?) {
        let xrgb = marquee_drm_format_xrgb8888(), nv12 = marquee_drm_format_nv12()
        let usable = planes.filter { ($0.kind == .primary || $0.kind == .overlay) && ($0.supports(xrgb) || $0.supports(nv12)) }
        let primary = usable.first { $0.kind == .primary }
        guard var atomic else {
            // Legacy modesetting shows one framebuffer per CRTC: the primary plane's.
            guard request == .auto || request == .primary || request == .id(primary?.id ?? 0) else {
                throw KMSError(call: "plane", code: EINVAL, device: device.path, detail: "plane \(request) needs atomic modesetting")
            }
            guard let primary else {
                throw KMSError(call: "plane", code: ENODEV, device: device.path, detail: "no primary plane with XRGB8888 or NV12 for CRTC \(crtc)")
            }
            let format = primary.supports(xrgb) ? "XR24" : "NV12"
            return (primary, PlaneCapabilities(plane: primary.id, kind: .primary, format: format, canPosition: false, canScale: false), nil)
        }
        let candidates = usable.filter { plane in
            switch request {
            case .auto: true
            case .primary: plane.kind == .primary
            case .overlay: plane.kind == .overlay
            case .id(let id): plane.id == id
            }
        }
        guard !candidates.isEmpty else {
            let listing = usable.map { "\($0.id) \($0.kind.rawValue)" }.joined(separator: ", ")
            throw KMSError(call: "plane", code: ENODEV, device: device.path,
                           detail: "no \(request) plane with XRGB8888 or NV12 for CRTC \(crtc) (have: \(listing))")
        }
        let prober = try PlaneProber(device: device, atomic: atomic, mode: mode, primary: primary)
        guard let best = PlaneProber.best(of: try prober.capabilities(of: candidates)) else {
            throw KMSError(call: "plane", code: ENODEV, device: device.path,
                           detail: "TEST_ONLY commits: no \(request) plane can show video on CRTC \(crtc) at \(mode)")
        }
        atomic.video = try PlaneState(device: device, plane: best.plane.id, crtc: crtc)
        if best.plane.kind != .primary, let primary = prober.primary, let buffer = prober.background {
            atomic.background = (primary.state, buffer)
        }
        return (best.plane, best.capabilities, atomic)
    }

    /// Puts `framebuffer` on screen: sets the mode for the first frame (and
    /// after the display came back), flips otherwise. While the display is
    /// gone nothing is committed; the player's clock keeps pacing.
    func show(_ framebuffer: UInt32, _ geometry: ScanoutGeometry) throws(KMSError) -> HostTime {
        if let change = connectorWatch.poll(at: clock.now()) { try follow(change) }
        guard connectorWatch.isConnected else { return clock.now() }
        onScreen = (framebuffer, geometry)
        // Off, the picture waits for the screen to be turned on: a flip on
        // an inactive CRTC is refused (no vblank would complete it).
        guard screenOn else { return clock.now() }
        guard !needsModeset else {
            try setMode(showing: framebuffer, geometry)
            needsModeset = false
            hasShownAFrame = true
            return clock.now()
        }
        try flip(to: framebuffer, geometry)
        return try flips.waitForFlip(timeout: Self.flipTimeout) ?? clock.now()
    }

    /// Nothing to show (paused, finished): a display that came back gets
    /// the picture last shown, with the mode set again; not while the
    /// screen is off, which only `setScreenPower(true)` ends.
    public func maintain() {
        guard let change = connectorWatch.poll(at: clock.now()) else { return }
        do throws(KMSError) {
            try follow(change)
            guard needsModeset, screenOn, connectorWatch.isConnected, let onScreen else { return }
            try setMode(showing: onScreen.framebuffer, onScreen.geometry)
            needsModeset = false
        } catch {
            options.onDisplayEvent?("display \(connector.name): \(error)")
        }
    }

    /// A display that went and came back gets its mode set again (the same
    /// one where it still offers it); a link gone bad is retrained by a modeset.
    func follow(_ change: ConnectorWatch.Change) throws(KMSError) {
        switch change {
        case .disconnected:
            options.onDisplayEvent?("display \(connector.name) disconnected; playing on, the picture comes back with it")
        case .linkBroken:
            needsModeset = true
            options.onDisplayEvent?("display \(connector.name): link status bad; setting \(mode) again")
        case .reconnected(let modes):
            needsModeset = true
            if !modes.contains(where: { $0.hasTimings(of: mode) }), let chosen = options.mode.choose(from: modes, frameRate: options.frameRate) {
                mode = chosen
                if atomic != nil { atomic?.modeBlob = try ModeBlob(device: device, mode: chosen) }
                if let background = atomic?.background {
                    atomic?.background = (background.plane, try DumbBuffer(device: device, width: chosen.width, height: chosen.height,
                                                                           fourcc: marquee_drm_format_xrgb8888()))
                }
            }
            options.onDisplayEvent?("display \(connector.name) is back: \(mode) set again")
        }
    }

    /// The first frame: set the mode with it on the plane. TEST_ONLY first so
    /// a configuration the driver refuses is reported without touching the screen.
    func setMode(showing framebuffer: UInt32, _ geometry: ScanoutGeometry) throws(KMSError) {
        guard let atomic, let video = atomic.video else {
            var connectorID = connector.id
            var info = mode.modeInfo
            try checkDRM(drmModeSetCrtc(device.fd, crtc, framebuffer, 0, 0, &connectorID, 1, &info), "drmModeSetCrtc", device: device.path)
            return
        }
        if let background = atomic.background { background.buffer.fill(rgb: options.background) }
        for flags in [DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET, DRM_MODE_ATOMIC_ALLOW_MODESET] {
            let request = try AtomicRequest(device: device)
            try request.set(connector.id, atomic.connectorProperties, "CRTC_ID", UInt64(crtc))
            try request.set(crtc, atomic.crtcProperties, "MODE_ID", UInt64(atomic.modeBlob.id))
            try request.set(crtc, atomic.crtcProperties, "ACTIVE", 1)
            if let background = atomic.background {
                let screen = PixelRect(x: 0, y: 0, width: mode.width, height: mode.height)
                try background.plane.set(request, framebuffer: background.buffer.framebuffer, source: screen, destination: screen)
            }
            try video.set(request, framebuffer: framebuffer, source: geometry.source, destination: geometry.destination)
            if let colour = yuvColour { try video.setColour(request, colour) }
            try request.commit(flags: flags)
        }
    }

    func flip(to framebuffer: UInt32, _ geometry: ScanoutGeometry) throws(KMSError) {
        guard let atomic, let video = atomic.video else {
            try checkDRM(drmModePageFlip(device.fd, crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), flips.userData),
                         "drmModePageFlip", device: device.path)
            return
        }
        let request = try AtomicRequest(device: device)
        try video.set(request, framebuffer: framebuffer, source: geometry.source, destination: geometry.destination)
        if let colour = yuvColour { try video.setColour(request, colour) }
        try request.commit(flags: DRM_MODE_ATOMIC_NONBLOCK | Int32(DRM_MODE_PAGE_FLIP_EVENT), userData: flips.userData)
    }

    /// An overlay is not part of the console's state: take it down before the
    /// CRTC goes back. Best effort, at exit.
    func takeVideoPlaneOff() {
        guard hasShownAFrame, plane.kind != .primary, let video = atomic?.video,
              let request = try? AtomicRequest(device: device) else { return }
        do throws(KMSError) {
            try video.disable(request)
            try request.commit(flags: 0)
        } catch {}
    }
}
