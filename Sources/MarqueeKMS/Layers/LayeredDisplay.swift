import Glibc
import MarqueeCore

/// A display that shows many layers, each one player's pictures, and owns
/// the screen they share: its CRTC, planes and mode (`KMSHead`), or a
/// screen in memory (`MemoryHead`). One thread, `marquee.display`,
/// commits for all of them: once per vblank it takes every layer's new
/// picture, composes those without a plane of their own into the primary
/// plane's buffer (only where something changed) and puts the result and
/// the plane layers' buffers up in one atomic commit. Two commits never
/// race for one CRTC (kmscube's and Weston's rule), and a layer's player
/// never waits for another's.
///
/// Layers go on a hardware plane of their own where TEST_ONLY commits say
/// the driver takes one at the layer's place (the topmost first, and none
/// under a composed layer it overlaps); the rest are composed in software.
///
/// Threading: any thread. The layers' presenters hand pictures over with
/// `show` and wait for the commit that carries them.
public final class LayeredDisplay: LayerDisplay, @unchecked Sendable {
    // @unchecked: everything below `lock` is guarded by it; `head`, the
    // records and the planes shown are the display thread's alone.
    let head: any DisplayHead
    private let clock: any HostClock
    /// The colour around and under every layer, 0xRRGGBB.
    public let background: UInt32
    private let lock = Condition()
    private var layers: [DisplayLayer] = []
    private var added = 0
    /// Layer index (bottom first) -> plane, for the layers as they are now; nil: to be worked out.
    private var assignment: [ObjectIdentifier: UInt32]?
    private var powerWanted = true
    private var powerApplied = true
    private var redrawAll = false
    private var stopping = false
    private var running = false
    private let onEvent: (@Sendable (String) -> Void)?

    // The display thread's.
    private var composition = LayerComposition()
    private var planesShown: [UInt32: PlaneContent] = [:]

    /// A presenter waits this long at most for its commit: a display thread
    /// stuck in a driver must not freeze every player.
    static let commitTimeout = Duration.milliseconds(500)
    /// How long before a vblank the display takes what the layers handed
    /// over (Weston's repaint window, 7 ms there too): enough to compose a
    /// changed layer and commit; a picture handed over later goes up a
    /// vblank later.
    static let repaintWindow = Duration.milliseconds(6)

    init(head: any DisplayHead, clock: any HostClock, background: UInt32, onEvent: (@Sendable (String) -> Void)?) {
        self.head = head
        self.clock = clock
        self.background = background
        self.onEvent = onEvent
    }

    /// A display on the KMS card and connector `options` name (the first
    /// connected ones by default). A connector that is not there, or not
    /// connected, is waited for: one line, and the layers play meanwhile.
    public static func kms(options: KMSOptions, clock: any HostClock) throws(KMSError) -> LayeredDisplay {
        let display = LayeredDisplay(head: try KMSHead(options: options, clock: clock), clock: clock,
                                     background: options.background, onEvent: options.onDisplayEvent)
        display.start()
        return display
    }

    /// A display on each connector connected now, on the card `options`
    /// names or on every card (`[display] mirror`); where none is, one that
    /// waits for the first to come.
    public static func kmsEveryConnected(options: KMSOptions, clock: any HostClock) throws(KMSError) -> [LayeredDisplay] {
        var displays: [LayeredDisplay] = []
        for (card, connector) in KMSCard.connected(options) {
            var one = options
            (one.card, one.connector) = (card, connector)
            displays.append(try kms(options: one, clock: clock))
        }
        return displays.isEmpty ? [try kms(options: options, clock: clock)] : displays
    }

    /// A screen in memory, paced like a display at `refreshRate`: what host
    /// tests look at, composed as a KMS display composes its layers.
    public static func memory(width: Int, height: Int, clock: any HostClock, refreshRate: Double = 60,
                              background: UInt32 = 0, name: String = "memory") -> LayeredDisplay {
        let display = LayeredDisplay(head: MemoryHead(width: width, height: height, clock: clock, refreshRate: refreshRate,
                                                      background: background, name: name),
                                     clock: clock, background: background, onEvent: nil)
        display.start()
        return display
    }

    /// The connector's name ("Virtual-1") or "memory".
    public var name: String { head.name }
    /// The connector, its mode and which layers are on planes, in one line.
    public var summary: String { withLock { head.summary } }
    public var screenSize: PixelSize? { withLock { head.screenSize } }
    var refreshInterval: Duration? { head.refreshInterval }

    public func addLayer(_ settings: LayerSettings) -> any VideoLayer { add(settings) }

    /// An overlay: `content` drawn by the display's thread over the layers
    /// under it, blended per pixel, and drawn again when it says it changes.
    /// Take it off with `removeLayer`.
    public func addOverlay(_ settings: LayerSettings, content: any OverlayContent) -> DisplayLayer {
        add(settings, content: content)
    }

    func add(_ settings: LayerSettings, content: (any OverlayContent)? = nil) -> DisplayLayer {
        withLock {
            let layer = DisplayLayer(display: self, settings: settings, order: added, clock: clock, content: content)
            added += 1
            layers.append(layer)
            assignment = nil
            return layer
        }
    }

    public func removeLayer(_ layer: any VideoLayer) {
        lock.withLock {
            layers.removeAll { $0 === layer }
            assignment = nil
            redrawAll = true
            lock.broadcast()
        }
    }

    /// The layers, bottom first.
    public var stack: [any VideoLayer] { withLock { ordered } }

    private var ordered: [DisplayLayer] {
        layers.sorted { ($0.storedSettings.zPosition, $0.order) < ($1.storedSettings.zPosition, $1.order) }
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result { try lock.withLock(body) }

    func redraw(_ overlay: DisplayLayer) {
        lock.withLock {
            overlay.due = clock.now()
            lock.broadcast()
        }
    }

    /// A settings change: placed again, drawn at the next commit.
    func change(_ layer: DisplayLayer, _ edit: (DisplayLayer) -> Void) {
        lock.withLock {
            edit(layer)
            layer.offScreenNoted = nil
            assignment = nil
            redrawAll = true
            lock.broadcast()
        }
    }

    /// Where a layer is on the screen and whether it has a plane; nil while
    /// the display is not there or the layer is off it. Under the lock.
    func place(_ layer: DisplayLayer) -> (rect: PixelRect, plane: UInt32?)? {
        guard let screen = head.screenSize else { return nil }
        guard let rect = layer.storedSettings.frame.resolve(on: screen) else {
            if layer.offScreenNoted != screen {
                layer.offScreenNoted = screen
                onEvent?("display \(head.name): a layer at \(layer.storedSettings.frame) is off the \(screen) screen; not shown")
            }
            return nil
        }
        if assignment == nil {
            let stack = ordered.compactMap { layer -> (DisplayLayer, PixelRect)? in
                guard !layer.storedSettings.isHidden, layer.storedSettings.opacity > 0,
                      let rect = layer.storedSettings.frame.resolve(on: screen) else { return nil }
                return (layer, rect)
            }
            // A layer seen through as a whole (opacity below 1) is blended in software, and what
            // it covers with it: no plane's alpha property is used. An overlay's own alpha is
            // blended by a plane that takes ARGB8888 (premultiplied, KMS's default blend mode).
            let translucent = stack.map { $0.0.storedSettings.opacity < 1 }
            let alpha = stack.map { $0.0.content != nil }
            assignment = Dictionary(uniqueKeysWithValues: head.assignPlanes(stack.map(\.1), composedOnly: translucent, needsAlpha: alpha).map { index, plane in
                (ObjectIdentifier(stack[index].0), plane)
            })
        }
        return (rect, assignment?[ObjectIdentifier(layer)])
    }

    /// Hands over the picture in `buffer` for the first vblank at or after
    /// `notBefore` and waits for the commit that shows it; returns when it
    /// went up (or now, after `commitTimeout`, the picture withdrawn).
    func show(_ layer: DisplayLayer, buffer: Int, notBefore: HostTime) -> HostTime {
        waitShown(layer, version: handOver(layer, buffer: buffer, notBefore: notBefore), notBefore: notBefore)
    }

    /// The first half of `show`: the picture is the display's to commit; its version.
    func handOver(_ layer: DisplayLayer, buffer: Int, notBefore: HostTime) -> Int {
        lock.withLock {
            layer.version += 1
            layer.pending = (buffer, layer.version, notBefore)
            lock.broadcast()
            return layer.version
        }
    }

    /// The second half: waits for the commit that carries `version`.
    func waitShown(_ layer: DisplayLayer, version: Int, notBefore: HostTime) -> HostTime {
        lock.withLock {
            let deadline = max(notBefore, clock.now()) + Self.commitTimeout
            while layer.committedVersion < version, !stopping {
                guard lock.wait(untilMonotonic: deadline) else {
                    if layer.pending?.version == version { layer.pending = nil }
                    return clock.now()
                }
            }
            layer.shown = true
            return layer.shownAt ?? clock.now()
        }
    }

    var isScreenOn: Bool { withLock { powerWanted } }

    /// Switches the screen on or off at the display thread's next turn, and waits for it.
    func setScreenPower(_ on: Bool) throws {
        lock.withLock {
            powerWanted = on
            lock.broadcast()
            let deadline = clock.now() + Self.commitTimeout
            while powerApplied != on, !stopping {
                if !lock.wait(untilMonotonic: deadline) { return }
            }
        }
    }

    private func start() {
        running = true
        NamedThread.start("marquee.display") { [self] in run() }
    }

    /// Stops the display thread and puts the console back. Stop the layers' players first.
    public func close() {
        let wasRunning = lock.withLock {
            stopping = true
            lock.broadcast()
            while running { lock.wait() }
            return true
        }
        if wasRunning { head.close() }
    }

    deinit {
        if !stopping { head.close() }
    }

    /// The display thread: waits for pictures (or a second, to look after
    /// the display), then commits everything due at once.
    private func run() {
        var nextLook = clock.now() + .seconds(1)
        while true {
            lock.lock()
            var vblank: HostTime?
            while !stopping {
                let now = clock.now()
                if powerWanted != powerApplied || redrawAll || now >= nextLook {
                    vblank = head.nextVblank(after: now)
                    break
                }
                guard let due = (layers.compactMap(\.pending?.notBefore) + layers.compactMap(\.due)).min() else {
                    _ = lock.wait(untilMonotonic: nextLook)
                    continue
                }
                // Gather every layer's picture for the vblank the earliest is
                // due on, until the repaint window before it.
                vblank = head.nextVblank(after: max(now, due))
                guard let vblank else { break }
                let gather = vblank + .nanoseconds(-Self.repaintWindow.nanoseconds)
                if now >= gather { break }
                _ = lock.wait(untilMonotonic: min(gather, nextLook))
            }
            if stopping {
                running = false
                lock.broadcast()
                lock.unlock()
                return
            }
            let power = powerWanted == powerApplied ? nil : powerWanted
            var change: HeadChange?
            if clock.now() >= nextLook {
                nextLook = clock.now() + .seconds(1)
                // Under the lock: it may change the screen's size, which layers read.
                change = head.maintain()
                if change == .remade {
                    assignment = nil
                    redrawAll = true
                }
            }
            lock.unlock()
            if let power { applyPower(power) }
            commitOnce(for: vblank)
        }
    }

    private func applyPower(_ on: Bool) {
        do {
            try head.setPower(on)
        } catch {
            onEvent?("display \(head.name): \(error)")
        }
        lock.withLock {
            powerApplied = on
            if on { redrawAll = true }
            lock.broadcast()
        }
    }

    /// One commit: the layers as they are now, with the pictures due at
    /// `vblank` (all those handed over, where the head cannot tell).
    private func commitOnce(for vblank: HostTime?) {
        let drawn = drawOverlays(for: vblank ?? clock.now())
        let (snapshot, taken, redraw, powered) = lock.withLock { () -> ([LayerComposition.Layer], [ObjectIdentifier: Int], Bool, Bool) in
            var taken: [ObjectIdentifier: Int] = [:]
            for layer in layers {
                guard let pending = layer.pending, vblank.map({ pending.notBefore <= $0 }) ?? true else { continue }
                layer.latest = pending.buffer
                layer.latestVersion = pending.version
                layer.pending = nil
                taken[ObjectIdentifier(layer)] = pending.version
            }
            let stack = ordered.map { layer in
                let place = place(layer)
                return LayerComposition.Layer(id: ObjectIdentifier(layer), settings: layer.storedSettings, rect: place?.rect,
                                              plane: place?.plane, onPlaneBuffers: layer.buffersOnPlane,
                                              buffer: layer.latest.map { layer.buffers[$0] }, version: layer.latestVersion,
                                              perPixelAlpha: layer.content != nil)
            }
            defer { redrawAll = false }
            return (stack, taken, redrawAll, powerApplied)
        }
        // Nothing new (the once-a-second look at the display): the screen is as it should be,
        // and a commit would only bring the other buffer up to date, at a wake-up for its vblank.
        if drawn == 0, taken.isEmpty, !redraw, !head.needsPrimary { return }
        var shownAt = clock.now()
        if powered, !head.primary.isEmpty {
            if redraw { composition.forgetAll() }
            composition.follow(epoch: head.primaryEpoch, buffers: head.primary.count)
            let index = head.nextPrimary
            let damaged = composition.compose(snapshot, into: head.primary[index], index: index, background: background)
            var planes: [PlaneContent] = []
            for layer in snapshot where !layer.settings.isHidden {
                guard let plane = layer.plane, layer.onPlaneBuffers, let buffer = layer.buffer, let rect = layer.rect else { continue }
                planes.append(PlaneContent(plane: plane, buffer: buffer, destination: rect))
            }
            let changed = Set(planes.filter { content in
                planesShown[content.plane].map { $0.buffer !== content.buffer || $0.destination != content.destination } ?? true
            }.map(\.plane)).union(planesShown.keys.filter { id in !planes.contains { $0.plane == id } })
            if damaged || head.needsPrimary || !changed.isEmpty {
                do {
                    shownAt = try head.commit(primary: damaged || head.needsPrimary ? index : nil, planes: planes, changed: changed)
                    planesShown = Dictionary(uniqueKeysWithValues: planes.map { ($0.plane, $0) })
                } catch {
                    onEvent?("display \(head.name): \(error)")
                    composition.forgetAll()
                }
            }
        }
        lock.withLock {
            for layer in layers {
                guard let version = taken[ObjectIdentifier(layer)] else { continue }
                layer.committedVersion = version
                layer.shownAt = shownAt
            }
            lock.broadcast()
        }
    }

    /// Draws every overlay due by `time` into its spare buffer (made at its
    /// place's size: ARGB scan-out memory where it has a plane, else memory),
    /// outside the lock: text takes a while to lay out. Returns how many it drew.
    private func drawOverlays(for time: HostTime) -> Int {
        let due = lock.withLock { () -> [(DisplayLayer, PixelRect, Bool, [any ComposedBuffer], Bool, Int?)] in
            layers.compactMap { layer in
                guard layer.content != nil, let place = place(layer) else { return nil }
                // Due, or moved (to or off a plane, another size): its buffers no longer fit its place.
                let moved = layer.buffersOnPlane != (place.plane != nil)
                    || layer.buffers.first.map { $0.width != place.rect.width || $0.height != place.rect.height } ?? true
                guard moved || layer.due.map({ $0 <= time }) == true else { return nil }
                return (layer, place.rect, place.plane != nil, layer.buffers, moved, layer.latest)
            }
        }
        var drawn = 0
        for (layer, rect, onPlane, current, moved, latest) in due {
            var buffers = current
            let count = onPlane ? 3 : 2
            if moved {
                buffers = (0..<count).compactMap { _ in try? head.makeBuffer(width: rect.width, height: rect.height, forPlane: onPlane, alpha: true) }
                guard buffers.count == count else { continue }
            }
            // Not the one on screen (nor, on a plane, the one before it, which a flip may still be leaving).
            let spare = moved ? 0 : ((latest ?? -1) + 1) % count
            buffers[spare].fill(rgb: 0)
            let next = layer.content!.draw(into: buffers[spare].planes(inside: PixelRect(x: 0, y: 0, width: rect.width, height: rect.height))[0],
                                           size: PixelSize(width: rect.width, height: rect.height), at: time)
            lock.withLock {
                layer.buffers = buffers
                layer.buffersOnPlane = onPlane
                layer.latest = spare
                layer.version += 1
                layer.latestVersion = layer.version
                layer.shown = true
                // Drawn again when asked meanwhile, else when it said.
                if let asked = layer.due, asked > time { return }
                layer.due = next
            }
            drawn += 1
        }
        return drawn
    }

    /// The screen as composed now, every layer in (those on planes too):
    /// `width` x `height` pixels of R, G, B bytes; nil while no display is there.
    public func screen() -> (width: Int, height: Int, rgb: [UInt8])? {
        let (size, stack) = lock.withLock { () -> (PixelSize?, [LayerComposition.Layer]) in
            (head.screenSize, ordered.map { layer in
                let rect = head.screenSize.flatMap { layer.storedSettings.frame.resolve(on: $0) }
                return LayerComposition.Layer(id: ObjectIdentifier(layer), settings: layer.storedSettings, rect: rect, plane: nil,
                                              onPlaneBuffers: false, buffer: layer.latest.map { layer.buffers[$0] }, version: layer.latestVersion,
                                              perPixelAlpha: layer.content != nil)
            })
        }
        guard let size else { return nil }
        let buffer = MemoryBuffer(width: size.width, height: size.height)
        buffer.fill(rgb: background)
        var composition = LayerComposition()
        _ = composition.compose(stack, into: buffer, index: 0, background: background)
        return (size.width, size.height, buffer.rgb())
    }
}
