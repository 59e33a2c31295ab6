import MarqueeCore
import CDRM
import CMarqueeShims
import Glibc

/// What TEST_ONLY commits found a plane can do on one CRTC and mode.
public struct PlaneCapabilities: Sendable, Encodable {
    public let plane: UInt32
    public let kind: PlaneInfo.Kind
    /// The fourcc Marquee writes to it ("NV12" where the plane scales and takes it, else "XR24").
    public let format: String
    /// A buffer smaller than the screen can be put anywhere on it.
    public let canPosition: Bool
    /// The plane scales its buffer to another size.
    public let canScale: Bool

    /// The primary plane always carries a full-screen buffer, so the borders
    /// keep the background colour; an overlay leaves them to the primary.
    public var strategy: ScanoutStrategy {
        kind == .primary ? .fullScreen : canScale ? .scaled : canPosition ? .positioned : .fullScreen
    }

    /// Higher is better for video: hardware scaling saves the CPU the most,
    /// then a picture-sized buffer, then YUV.
    var score: Int {
        switch strategy {
        case .scaled: 8 + (format == "NV12" ? 2 : 0)
        case .positioned: 4
        case .fullScreen: 0
        }
    }

    var fourcc: UInt32 { format == "NV12" ? marquee_drm_format_nv12() : marquee_drm_format_xrgb8888() }
}

/// Asks the driver, by TEST_ONLY atomic commits, what each plane can do
/// with the CRTC lit at `mode`: nothing is guessed from plane types or
/// driver names, and nothing reaches the screen.
final class PlaneProber {
    private let device: DRMDevice
    private let atomic: AtomicObjects
    /// The primary plane, holding `background` while an overlay is tested:
    /// many drivers refuse a lit CRTC without its primary.
    let primary: (info: PlaneInfo, state: PlaneState)?
    /// Full screen, XRGB8888 (where the primary takes it); the output keeps
    /// it under an overlay for the borders.
    let background: DumbBuffer?
    private let screen: PixelRect

    init(device: DRMDevice, atomic: AtomicObjects, mode: DisplayMode, primary: PlaneInfo?) throws(KMSError) {
        self.device = device
        self.atomic = atomic
        screen = PixelRect(x: 0, y: 0, width: mode.width, height: mode.height)
        let xrgb = marquee_drm_format_xrgb8888()
        self.primary = try primary.map { (info) throws(KMSError) in (info, try PlaneState(device: device, plane: info.id, crtc: atomic.crtc)) }
        background = primary?.supports(xrgb) == true ? try DumbBuffer(device: device, width: mode.width, height: mode.height, fourcc: xrgb) : nil
    }

    /// Those of `planes` that can show video, with what they can do, in their order.
    func capabilities(of planes: [PlaneInfo]) throws(KMSError) -> [(plane: PlaneInfo, capabilities: PlaneCapabilities)] {
        var found: [(plane: PlaneInfo, capabilities: PlaneCapabilities)] = []
        for plane in planes {
            if let capabilities = try capabilities(of: plane) { found.append((plane, capabilities)) }
        }
        return found
    }

    /// The best for video of what `capabilities(of:)` found: the highest score, the first of equals.
    static func best(of found: [(plane: PlaneInfo, capabilities: PlaneCapabilities)]) -> (plane: PlaneInfo, capabilities: PlaneCapabilities)? {
        var best: (plane: PlaneInfo, capabilities: PlaneCapabilities)?
        for candidate in found where best.map({ candidate.capabilities.score > $0.capabilities.score }) ?? true { best = candidate }
        return best
    }

    /// nil when the plane takes neither XRGB8888 nor NV12, or is an overlay
    /// that cannot show a picture smaller than the screen.
    private func capabilities(of plane: PlaneInfo) throws(KMSError) -> PlaneCapabilities? {
        let xrgb = marquee_drm_format_xrgb8888(), nv12 = marquee_drm_format_nv12()
        guard plane.supports(xrgb) || plane.supports(nv12) else { return nil }
        let state = try PlaneState(device: device, plane: plane.id, crtc: atomic.crtc)
        // A probe picture well inside any mode (640x480 and up), scaled 2x for the scaling test.
        let (width, height) = (256, 144)
        let at = PixelRect(x: 16, y: 16, width: width, height: height)
        let doubled = PixelRect(x: 16, y: 16, width: min(width * 2, screen.width - 16), height: min(height * 2, screen.height - 16))
        var found: [UInt32: PlaneCapabilities] = [:]
        for fourcc in [nv12, xrgb] where plane.supports(fourcc) {
            let buffer = try DumbBuffer(device: device, width: width, height: height, fourcc: fourcc)
            let canScale = test(plane, state, buffer, destination: doubled)
            found[fourcc] = PlaneCapabilities(plane: plane.id, kind: plane.kind, format: fourccName(fourcc),
                                              canPosition: canScale || test(plane, state, buffer, destination: at), canScale: canScale)
        }
        if plane.kind == .primary { return found[xrgb] ?? found[nv12] }
        // NV12 is worth it where the plane scales it; otherwise the CPU scales, into XRGB.
        if let yuv = found[nv12], yuv.canScale { return yuv }
        return [found[xrgb], found[nv12]].compactMap { $0 }.first { $0.canPosition }
    }

    /// Whether the driver accepts `buffer` on `plane` at `destination`.
    private func test(_ plane: PlaneInfo, _ state: PlaneState, _ buffer: DumbBuffer, destination: PixelRect) -> Bool {
        do throws(KMSError) {
            let request = try AtomicRequest(device: device)
            try request.set(atomic.connector, atomic.connectorProperties, "CRTC_ID", UInt64(atomic.crtc))
            try request.set(atomic.crtc, atomic.crtcProperties, "MODE_ID", UInt64(atomic.modeBlob.id))
            try request.set(atomic.crtc, atomic.crtcProperties, "ACTIVE", 1)
            if let primary, let background, primary.info.id != plane.id {
                try primary.state.set(request, framebuffer: background.framebuffer, source: screen, destination: screen)
            }
            try state.set(request, framebuffer: buffer.framebuffer,
                          source: PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height), destination: destination)
            try request.commit(flags: DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET)
            return true
        } catch {
            return false
        }
    }
}

/// A plane's properties, to put a framebuffer on it in an atomic request.
struct PlaneState {
    let plane: UInt32
    let crtc: UInt32
    private let properties: PropertySet

    init(device: DRMDevice, plane: UInt32, crtc: UInt32) throws(KMSError) {
        self.plane = plane
        self.crtc = crtc
        properties = try PropertySet(device: device, object: plane, type: UInt32(DRM_MODE_OBJECT_PLANE))
    }

    /// `source` in buffer pixels (sent as 16.16 fixed point), `destination` in screen pixels.
    func set(_ request: AtomicRequest, framebuffer: UInt32, source: PixelRect, destination: PixelRect) throws(KMSError) {
        try request.set(plane, properties, "FB_ID", UInt64(framebuffer))
        try request.set(plane, properties, "CRTC_ID", UInt64(crtc))
        try request.set(plane, properties, "SRC_X", UInt64(source.x) << 16)
        try request.set(plane, properties, "SRC_Y", UInt64(source.y) << 16)
        try request.set(plane, properties, "SRC_W", UInt64(source.width) << 16)
        try request.set(plane, properties, "SRC_H", UInt64(source.height) << 16)
        try request.set(plane, properties, "CRTC_X", UInt64(destination.x))
        try request.set(plane, properties, "CRTC_Y", UInt64(destination.y))
        try request.set(plane, properties, "CRTC_W", UInt64(destination.width))
        try request.set(plane, properties, "CRTC_H", UInt64(destination.height))
    }

    /// Tells a YUV plane how to read its buffer (COLOR_ENCODING, COLOR_RANGE),
    /// where it has those properties and the value; otherwise it reads with
    /// its defaults (BT.601, limited), which is what software frames are
    /// converted to.
    func setColour(_ request: AtomicRequest, _ colour: ColourDescription) throws(KMSError) {
        let encoding = switch colour.matrix {
        case .bt709: "ITU-R BT.709 YCbCr"
        case .bt2020: "ITU-R BT.2020 YCbCr"
        case .bt601, .unspecified: "ITU-R BT.601 YCbCr"
        }
        let range = colour.effectiveRange == .full ? "YCbCr full range" : "YCbCr limited range"
        for (name, value) in [("COLOR_ENCODING", encoding), ("COLOR_RANGE", range)] {
            guard let property = properties[name], !property.isImmutable, let number = property.enumValues[value] else { continue }
            try request.set(plane, properties, name, number)
        }
    }

    /// Sets the plane's stacking order where its zpos can be set (a fixed
    /// one stacks as it is); true when it was.
    @discardableResult
    func setZpos(_ request: AtomicRequest, _ value: UInt64) throws(KMSError) -> Bool {
        guard let property = properties["zpos"], !property.isImmutable else { return false }
        try request.set(plane, properties, "zpos", value)
        return true
    }

    /// Takes the plane off the screen.
    func disable(_ request: AtomicRequest) throws(KMSError) {
        try request.set(plane, properties, "FB_ID", 0)
        try request.set(plane, properties, "CRTC_ID", 0)
    }
}
