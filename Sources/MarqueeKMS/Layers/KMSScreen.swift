import CDRM
import CMarqueeShims
import Glibc
import MarqueeCore

/// A connected connector as a `KMSHead` drives it: the CRTC, the mode, the
/// primary plane with four screen-sized buffers the composed layers go
/// into, and the overlay planes that can show XRGB8888 on this CRTC,
/// bottom first. Builds and makes every commit of the head; holds its
/// CRTC on the card while it lives.
final class KMSScreen {
    private let card: KMSCard
    let device: DRMDevice
    let connector: ConnectorInfo
    let crtc: UInt32
    private(set) var mode: DisplayMode
    /// Nil on the legacy path (SetCrtc and PageFlip: the primary plane only).
    private(set) var atomic: AtomicObjects?
    let primaryPlane: PlaneState?
    let overlays: [PlaneInfo]
    /// The overlays that blend ARGB8888 (what overlays with alpha go on).
    let alphaOverlays: Set<UInt32>
    private let overlayStates: [UInt32: PlaneState]
    private(set) var primary: [DumbBuffer]
    let watch: ConnectorWatch
    private let saved: SavedCRTC?
    private let background: UInt32
    /// Overlays with a layer on them now.
    private var planesUp: Set<UInt32> = []

    init(card: KMSCard, inventory: DisplayInventory, connector: ConnectorInfo, options: KMSOptions) throws(KMSError) {
        let device = card.device
        let mode = try connector.mode(options, device: device)
        let crtc = try card.claim(connector.crtcChoices, for: connector.name)
        self.card = card
        self.device = device
        self.connector = connector
        self.mode = mode
        self.crtc = crtc
        background = options.background
        do throws(KMSError) {
            // An overlay that can go on several CRTCs is the first one's, so two heads never share it.
            let xrgb = marquee_drm_format_xrgb8888()
            let planes = inventory.planes.filter { $0.possibleCRTCs.contains(crtc) && $0.supports(xrgb) }
            let primaries = planes.filter { $0.kind == .primary }
            guard let primaryInfo = primaries.first(where: { $0.possibleCRTCs.first == crtc }) ?? primaries.first else {
                throw KMSError(call: "plane", code: ENODEV, device: device.path, detail: "no primary plane with XRGB8888 for CRTC \(crtc)")
            }
            if device.supportsAtomic {
                let atomic = try AtomicObjects(device: device, connector: connector.id, crtc: crtc, mode: mode)
                self.atomic = atomic
                primaryPlane = try PlaneState(device: device, plane: primaryInfo.id, crtc: crtc)
                overlays = planes.filter { $0.kind == .overlay && $0.possibleCRTCs.first == crtc }.sorted { ($0.zpos ?? 0, $0.id) < ($1.zpos ?? 0, $1.id) }
                alphaOverlays = Set(overlays.filter { $0.supports(marquee_drm_format_argb8888()) }.map(\.id))
                var states: [UInt32: PlaneState] = [:]
                for overlay in overlays { states[overlay.id] = try PlaneState(device: device, plane: overlay.id, crtc: crtc) }
                overlayStates = states
            } else {
                (atomic, primaryPlane, overlays, overlayStates, alphaOverlays) = (nil, nil, [], [:], [])
            }
            primary = try Self.buffers(device: device, mode: mode, background: options.background)
        } catch {
            card.release(crtc)
            throw error
        }
        watch = ConnectorWatch(device: device, connector: connector.id)
        saved = SavedCRTC(device: device, crtc: crtc, connector: connector.id)
    }

    deinit { card.release(crtc) }

    /// One on screen, one queued and two to compose into: vkms (under
    /// QEMU's TCG) was measured still reading the buffer two flips back
    /// after the flip event; with three, a composition into it showed as a
    /// wrong frame (CRC) about once a second.
    static let screenBuffers = 4

    private static func buffers(device: DRMDevice, mode: DisplayMode, background: UInt32) throws(KMSError) -> [DumbBuffer] {
        var made: [DumbBuffer] = []
        for _ in 0..<Self.screenBuffers {
            let buffer = try DumbBuffer(device: device, width: mode.width, height: mode.height, fourcc: marquee_drm_format_xrgb8888())
            buffer.fill(rgb: background)
            made.append(buffer)
        }
        return made
    }

    /// The display came back offering other modes: this one, and new buffers for it.
    func change(to mode: DisplayMode) throws(KMSError) {
        self.mode = mode
        if atomic != nil { atomic?.modeBlob = try ModeBlob(device: device, mode: mode) }
        primary = try Self.buffers(device: device, mode: mode, background: background)
    }

    private var screenRect: PixelRect { PixelRect(x: 0, y: 0, width: mode.width, height: mode.height) }

    /// Whether the driver takes these planes at these places together, over
    /// the primary plane, with the CRTC lit at the mode (TEST_ONLY).
    func accepts(_ assignment: [(plane: UInt32, rect: PixelRect, alpha: Bool)]) -> Bool {
        guard let atomic, let primaryPlane else { return false }
        do throws(KMSError) {
            let request = try AtomicRequest(device: device)
            try lightCRTC(request, atomic)
            try primaryPlane.set(request, framebuffer: primary[0].framebuffer, source: screenRect, destination: screenRect)
            var probes: [DumbBuffer] = []
            for (plane, rect, alpha) in assignment {
                let probe = try DumbBuffer(device: device, width: rect.width, height: rect.height,
                                           fourcc: alpha ? marquee_drm_format_argb8888() : marquee_drm_format_xrgb8888())
                probes.append(probe)
                try place(request, plane: plane, framebuffer: probe.framebuffer, width: rect.width, height: rect.height, at: rect)
            }
            try request.commit(flags: DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET)
            return true
        } catch {
            return false
        }
    }

    private func lightCRTC(_ request: AtomicRequest, _ atomic: AtomicObjects) throws(KMSError) {
        try request.set(connector.id, atomic.connectorProperties, "CRTC_ID", UInt64(crtc))
        try request.set(crtc, atomic.crtcProperties, "MODE_ID", UInt64(atomic.modeBlob.id))
        try request.set(crtc, atomic.crtcProperties, "ACTIVE", 1)
    }

    /// One overlay showing a whole buffer at `rect`, stacked by its place among the overlays.
    private func place(_ request: AtomicRequest, plane: UInt32, framebuffer: UInt32, width: Int, height: Int, at rect: PixelRect) throws(KMSError) {
        guard let state = overlayStates[plane] else { return }
        try state.set(request, framebuffer: framebuffer, source: PixelRect(x: 0, y: 0, width: width, height: height), destination: rect)
        if let position = overlays.firstIndex(where: { $0.id == plane }) { try state.setZpos(request, UInt64(position + 1)) }
    }

    private func place(_ request: AtomicRequest, _ content: PlaneContent) throws(KMSError) {
        guard let buffer = content.buffer as? DumbBuffer else { return }
        try place(request, plane: content.plane, framebuffer: buffer.framebuffer, width: buffer.width, height: buffer.height, at: content.destination)
    }

    /// Sets the mode with everything on it, blocking: TEST_ONLY first, so a
    /// refusal leaves the screen as it was.
    func setMode(primary buffer: DumbBuffer, planes: [PlaneContent]) throws(KMSError) {
        guard let atomic, let primaryPlane else {
            var connectorID = connector.id
            var info = mode.modeInfo
            try checkDRM(drmModeSetCrtc(device.fd, crtc, buffer.framebuffer, 0, 0, &connectorID, 1, &info), "drmModeSetCrtc", device: device.path)
            return
        }
        for flags in [DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET, DRM_MODE_ATOMIC_ALLOW_MODESET] {
            let request = try AtomicRequest(device: device)
            try lightCRTC(request, atomic)
            try primaryPlane.set(request, framebuffer: buffer.framebuffer, source: screenRect, destination: screenRect)
            for content in planes { try place(request, content) }
            for plane in planesUp.subtracting(planes.map(\.plane)) { try overlayStates[plane]?.disable(request) }
            try request.commit(flags: flags)
        }
        planesUp = Set(planes.map(\.plane))
    }

    /// One page flip with every change: the primary buffer (if new) and the
    /// planes in `changed` (put up as `planes` has them, or taken down).
    func flip(primary buffer: DumbBuffer?, planes: [PlaneContent], changed: Set<UInt32>, userData: UnsafeMutableRawPointer) throws(KMSError) {
        guard atomic != nil, let primaryPlane else {
            guard let buffer else { return }
            try checkDRM(drmModePageFlip(device.fd, crtc, buffer.framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData),
                         "drmModePageFlip", device: device.path)
            return
        }
        let request = try AtomicRequest(device: device)
        if let buffer { try primaryPlane.set(request, framebuffer: buffer.framebuffer, source: screenRect, destination: screenRect) }
        for plane in changed {
            if let content = planes.first(where: { $0.plane == plane }) {
                try place(request, content)
            } else {
                try overlayStates[plane]?.disable(request)
            }
        }
        try request.commit(flags: DRM_MODE_ATOMIC_NONBLOCK | Int32(DRM_MODE_PAGE_FLIP_EVENT), userData: userData)
        planesUp = Set(planes.map(\.plane))
    }

    /// DPMS off: the CRTC's ACTIVE 0, planes and mode kept (see KMSVideoOutput+ScreenPower).
    func powerOff() throws(KMSError) {
        guard let atomic else { return try setDPMS(DRM_MODE_DPMS_OFF) }
        for flags in [DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET, DRM_MODE_ATOMIC_ALLOW_MODESET] {
            let request = try AtomicRequest(device: device)
            try request.set(crtc, atomic.crtcProperties, "ACTIVE", 0)
            try request.commit(flags: flags)
        }
    }

    func setDPMS(_ state: Int32) throws(KMSError) {
        let properties = try PropertySet(device: device, object: connector.id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        let dpms = try properties.id("DPMS", device: device)
        try checkDRM(drmModeConnectorSetProperty(device.fd, connector.id, dpms, UInt64(state)),
                     "drmModeConnectorSetProperty(DPMS)", device: device.path)
    }

    /// Overlays down, then the console back. Best effort, at exit.
    func restore() {
        if !planesUp.isEmpty, let request = try? AtomicRequest(device: device) {
            do throws(KMSError) {
                for plane in planesUp { try overlayStates[plane]?.disable(request) }
                try request.commit(flags: 0)
            } catch {}
        }
        saved?.restore()
    }
}
