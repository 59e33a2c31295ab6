import Glibc
import MarqueeCore

/// One layer of a `LayeredDisplay`: the output its player presents
/// through. The presenter draws each picture into a buffer of the layer's
/// own (scan-out memory when the layer has a hardware plane, else memory
/// the display composes from) at the layer's size, with its gravity and
/// background; `present` hands it to the display, whose thread commits it
/// with every other layer's change at the next vblank.
///
/// Threading: the `ScanOutOutput` methods on the player's presenter thread
/// only; `settings`, `isReadyForDisplay` and `placement` from any thread.
/// The buffers and which of them is shown are the display's to guard
/// (its lock), since its thread reads them.
public final class DisplayLayer: VideoLayer, @unchecked Sendable {
    unowned let display: LayeredDisplay
    private let clock: any HostClock
    /// Under the display's lock from here down.
    var storedSettings: LayerSettings
    /// The layer's buffers; `latest` is the one the display shows, never drawn into.
    var buffers: [any ComposedBuffer] = []
    var buffersOnPlane = false
    var latest: Int?
    /// Counts pictures handed over; `latestVersion` is the one in `latest`,
    /// so the display redraws what changed.
    var version = 0
    var latestVersion = 0
    /// The picture handed over and not yet taken: a commit for a vblank
    /// before `notBefore` leaves it for a later one.
    var pending: (buffer: Int, version: Int, notBefore: HostTime)?
    /// The last version a commit carried, and when it went up.
    var committedVersion = 0
    var shownAt: HostTime?
    /// The screen size it was last said to be off of (said once per size and frame).
    var offScreenNoted: PixelSize?
    var shown = false
    /// The order layers were added in, which breaks ties of `zPosition`.
    let order: Int
    /// Set for an overlay: what the display draws into the layer itself
    /// (premultiplied ARGB, blended per pixel) rather than a player.
    let content: (any OverlayContent)?
    /// When the display draws the overlay next; nil: when asked (`redraw`).
    var due: HostTime?

    // The presenter thread's own.
    private var composer: ScreenComposer
    private var drawnRects: [PixelRect?] = []
    private var drawing: Int?
    /// Pictures drawn while the display is not there go here: a few pixels.
    private let scratch = MemoryBuffer(width: 16, height: 16)

    init(display: LayeredDisplay, settings: LayerSettings, order: Int, clock: any HostClock, content: (any OverlayContent)? = nil) {
        self.display = display
        self.clock = clock
        self.order = order
        self.content = content
        due = content == nil ? nil : clock.now()
        storedSettings = settings
        composer = Self.composer(for: settings)
    }

    private static func composer(for settings: LayerSettings) -> ScreenComposer {
        ScreenComposer(settings: .init(gravity: settings.gravity, rotation: settings.rotation, background: settings.background))
    }

    public var settings: LayerSettings {
        get { display.withLock { storedSettings } }
        set { display.change(self) { $0.storedSettings = newValue } }
    }

    public var isReadyForDisplay: Bool { display.withLock { shown } }
    public var placement: PixelRect? { display.withLock { display.place(self)?.rect } }

    public var acceptedFormats: [PixelFormat] { [.xrgb8888] }
    public var refreshInterval: Duration? { display.refreshInterval }
    /// The layer's size on the display as it was when asked: a still
    /// picture is decoded no larger.
    public var screenSize: PixelSize? { placement.map { PixelSize(width: $0.width, height: $0.height) } }

    public func nextTarget(for frame: VideoFrame) throws -> RenderTarget {
        let (place, settings) = display.withLock { (display.place(self), storedSettings) }
        if composer.settings != .init(gravity: settings.gravity, rotation: settings.rotation, background: settings.background) {
            composer = Self.composer(for: settings)
            drawnRects = drawnRects.map { _ in nil }
        }
        guard let place else {
            drawing = nil
            let layout = composer.layout(for: frame, strategy: .fullScreen, screenWidth: scratch.width, screenHeight: scratch.height)
            var drawn: PixelRect?
            return composer.target(for: frame, layout: layout, buffer: scratch, index: -1, drawn: &drawn, format: .xrgb8888, colour: nil)
        }
        let index = try buffer(width: place.rect.width, height: place.rect.height, onPlane: place.plane != nil)
        drawing = index
        let layout = composer.layout(for: frame, strategy: .fullScreen, screenWidth: place.rect.width, screenHeight: place.rect.height)
        return composer.target(for: frame, layout: layout, buffer: buffers[index], index: index, drawn: &drawnRects[index],
                               format: .xrgb8888, colour: nil)
    }

    /// A buffer to draw into: not the one shown, of the size and kind the
    /// layer's place needs (made anew when those change).
    private func buffer(width: Int, height: Int, onPlane: Bool) throws -> Int {
        let current = display.withLock { () -> (matches: Bool, latest: Int?) in
            (buffers.first.map { $0.width == width && $0.height == height } == true && buffersOnPlane == onPlane, latest)
        }
        guard current.matches else {
            // Three for a plane (one on screen, one queued, one drawn); two
            // in memory, since the display reads only the latest.
            var made: [any ComposedBuffer] = []
            for _ in 0..<(onPlane ? 3 : 2) {
                made.append(try display.head.makeBuffer(width: width, height: height, forPlane: onPlane, alpha: false))
            }
            drawnRects = made.map { _ in nil }
            display.withLock {
                buffers = made
                buffersOnPlane = onPlane
                latest = nil
            }
            return 0
        }
        return ((current.latest ?? -1) + 1) % drawnRects.count
    }

    public func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime {
        guard let ticket = handOver(at: target) else {
            clock.sleep(until: target)
            return max(target, clock.now())
        }
        return display.waitShown(self, version: ticket.version, notBefore: target)
    }

    /// The picture drawn since `nextTarget`, handed to the display for the
    /// vblank at or after `target`: its buffer and version; nil when
    /// nothing was drawn (the layer is off the display).
    func handOver(at target: HostTime) -> (buffer: Int, version: Int)? {
        guard let index = drawing else { return nil }
        composer.finish(into: buffers[index])
        drawing = nil
        return (index, display.handOver(self, buffer: index, notBefore: target))
    }

    /// `source`'s picture (its `buffer`) drawn into this layer's next
    /// buffer at this layer's size and handed over: how a mirrored layout's
    /// other displays show what the first one does. Nil when the layer is
    /// off its display.
    func handOver(copyOf source: DisplayLayer, buffer: Int, at target: HostTime) throws -> Int? {
        guard let place = display.withLock({ display.place(self) }) else { return nil }
        let index = try self.buffer(width: place.rect.width, height: place.rect.height, onPlane: place.plane != nil)
        let from = source.buffers[buffer], into = buffers[index]
        Blend.scale(from: from.planes(inside: PixelRect(x: 0, y: 0, width: from.width, height: from.height))[0],
                    width: from.width, height: from.height,
                    to: into.planes(inside: PixelRect(x: 0, y: 0, width: into.width, height: into.height))[0],
                    width: into.width, height: into.height)
        drawnRects[index] = nil
        return display.handOver(self, buffer: index, notBefore: target)
    }

    /// The display gathers every layer's picture before it commits, its
    /// repaint window ahead of the vblank: the presenter hands frames over
    /// that much earlier, with a little over for its own wake-up.
    public var handoverLead: Duration { LayeredDisplay.repaintWindow + .milliseconds(4) }

    /// Never called: `canScanOut` refuses every dmabuf (a decoder's surface
    /// is not the layer's size; the presenter downloads and draws it).
    public func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime { target }
    public func canScanOut(_ frame: VideoFrame, dmabuf: DMABufDescriptor) -> Bool { false }

    /// The display's thread looks after the display; a layer that lost its
    /// picture (the display came back, or the layer moved to another
    /// plane) asks for it again.
    public func maintain() {}
    public var needsPicture: Bool { display.withLock { latest == nil && shown } }
    public func flush() throws {}

    /// An overlay's content changed: the display draws it again for its next vblank.
    public func redraw() { display.redraw(self) }

    public var isScreenOn: Bool { display.isScreenOn }
    public func setScreenPower(_ on: Bool) throws { try display.setScreenPower(on) }
}

