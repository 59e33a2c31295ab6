import MarqueeCore

/// One layout shown on several displays (`[display] mirror`): each layer
/// is a layer of every display. The player draws each picture once, for
/// the first display; the others get a copy at their own size (scaled
/// when their modes differ). The picture is handed to every display
/// before the presenter waits for any, so the displays, each with its
/// own vblanks, put it up at their next one and a second display costs
/// the player no frame time.
///
/// Threading: as `LayeredDisplay`.
public final class MirroredDisplay: LayerDisplay, Sendable {
    /// The first is the one players draw for.
    public let displays: [LayeredDisplay]

    /// - Precondition: `displays` is not empty.
    public init(_ displays: [LayeredDisplay]) {
        precondition(!displays.isEmpty, "a mirror needs a display")
        self.displays = displays
    }

    public func addLayer(_ settings: LayerSettings) -> any VideoLayer {
        MirrorLayer(displays.map { $0.add(settings) })
    }

    public func removeLayer(_ layer: any VideoLayer) {
        guard let mirror = layer as? MirrorLayer else { return }
        for (display, copy) in zip(displays, mirror.copies) { display.removeLayer(copy) }
    }

    /// Every display's thread stopped and its console back.
    public func close() {
        for display in displays { display.close() }
    }
}

/// One layer of a `MirroredDisplay`: a `DisplayLayer` on each display.
/// The player draws for the first of them that is there, so a mirror
/// whose first display is unplugged plays on the others.
///
/// Threading: as `DisplayLayer`; `drawer` is the presenter thread's.
final class MirrorLayer: VideoLayer, @unchecked Sendable {
    let copies: [DisplayLayer]
    private var first: DisplayLayer { copies[0] }
    /// The copy the picture in hand was drawn for.
    private var drawer = 0

    init(_ copies: [DisplayLayer]) {
        self.copies = copies
    }

    var settings: LayerSettings {
        get { first.settings }
        set { for copy in copies { copy.settings = newValue } }
    }

    var isReadyForDisplay: Bool { copies.contains { $0.isReadyForDisplay } }
    var placement: PixelRect? { copies.lazy.compactMap(\.placement).first }
    var acceptedFormats: [PixelFormat] { [.xrgb8888] }
    var refreshInterval: Duration? { copies[drawer].refreshInterval }
    var screenSize: PixelSize? { copies.lazy.compactMap(\.screenSize).first }
    var handoverLead: Duration { first.handoverLead }

    func nextTarget(for frame: VideoFrame) throws -> RenderTarget {
        drawer = copies.firstIndex { $0.placement != nil } ?? 0
        return try copies[drawer].nextTarget(for: frame)
    }

    /// Handed to every display, then waited for on each; when the display it was drawn for showed it.
    func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime {
        let source = copies[drawer]
        guard let drawn = source.handOver(at: target) else {
            return try source.present(rendered, of: frame, at: target)
        }
        var handed: [(layer: DisplayLayer, version: Int)] = [(source, drawn.version)]
        for copy in copies where copy !== source {
            if let version = try copy.handOver(copyOf: source, buffer: drawn.buffer, at: target) { handed.append((copy, version)) }
        }
        var shown: HostTime?
        for (layer, version) in handed {
            let at = layer.display.waitShown(layer, version: version, notBefore: target)
            shown = shown ?? at
        }
        return shown!
    }

    func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime { target }
    func canScanOut(_ frame: VideoFrame, dmabuf: DMABufDescriptor) -> Bool { false }
    func maintain() {}
    var needsPicture: Bool { copies.contains { $0.needsPicture } }
    func flush() throws {}

    var isScreenOn: Bool { first.isScreenOn }
    func setScreenPower(_ on: Bool) throws {
        for copy in copies { try copy.setScreenPower(on) }
    }
}
