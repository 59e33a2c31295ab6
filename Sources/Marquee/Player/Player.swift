import Dispatch
import MarqueeFFmpeg

/// Plays items, like AVPlayer: `play()`, `pause()`, `rate`, `seek`, time
/// observers and end-of-item handling, on the outputs given at creation.
///
/// Thread-safe: call it from any thread or task. Decoding and presentation
/// run on the player's own threads; observers and event handlers run on the
/// queue given when they were added.
public class Player: @unchecked Sendable {
    // @unchecked: the class holds only `let`s of thread-safe types (the
    // engine guards its state with a Mutex); subclasses add no stored state.
    public enum Status: String, Sendable {
        /// Not started yet.
        case unknown
        case playing
        case paused
        /// Playback could not go on (see `error`).
        case failed
    }

    let engine: Engine

    public init(items: [PlayerItem] = [], configuration: PlayerConfiguration) {
        engine = Engine(items: items, configuration: configuration)
    }

    public convenience init(item: PlayerItem?, configuration: PlayerConfiguration) {
        self.init(items: item.map { [$0] } ?? [], configuration: configuration)
    }

    deinit { engine.shutdown() }

    // MARK: Playback

    /// Starts or resumes playback at the current rate (1 if it was 0).
    public func play() {
        let (needsStart, item, time) = engine.state.withLock { state -> (Bool, PlayerItem?, MediaTime) in
            let needsStart = state.presented == nil && state.start == nil && state.serial == 0
                || (!state.playing && state.status == .paused && state.presented?.item !== state.queue.current)
            state.playing = true
            return (needsStart, state.queue.current, state.presented?.item.currentTime() ?? .zero)
        }
        if needsStart, let item { _ = engine.restart(item: item, at: .zero, exact: false) }
        engine.observers.playbackStateChanged(at: time)
        engine.post(.rateChanged(rate))
        engine.setStatus(.playing)
    }

    public func pause() {
        let time = engine.state.withLock { state -> MediaTime in
            state.playing = false
            return state.presented?.item.currentTime() ?? .zero
        }
        engine.observers.playbackStateChanged(at: time)
        engine.post(.rateChanged(0))
        engine.setStatus(.paused)
    }

    /// 0 when paused; setting a non-zero rate plays at that speed (0.5, 1, 2,
    /// anything between), with audio kept at pitch.
    public var rate: Double {
        get { engine.state.withLock { $0.playing ? $0.rate : 0 } }
        set {
            guard newValue > 0 else { pause(); return }
            precondition(newValue.isFinite && newValue <= 16, "rate must be in (0, 16]")
            engine.state.withLock { $0.rate = newValue }
            engine.clock.setRate(newValue, at: engine.configuration.hostClock.now())
            play()
        }
    }

    public var status: Status { engine.state.withLock { $0.status } }
    public var error: (any Error)? { engine.state.withLock { $0.error } }

    /// 0...1 software gain applied to the audio.
    public var volume: Float {
        get { engine.state.withLock { $0.volume } }
        set { engine.state.withLock { $0.volume = min(max(newValue, 0), 1) } }
    }

    public var isMuted: Bool {
        get { engine.state.withLock { $0.muted } }
        set { engine.state.withLock { $0.muted = newValue } }
    }

    public var actionAtItemEnd: ActionAtItemEnd {
        get { engine.state.withLock { $0.action } }
        set { engine.state.withLock { $0.action = newValue } }
    }

    /// Loop the current item or the whole queue; takes effect at the next end.
    public var loopMode: LoopMode {
        get { engine.state.withLock { $0.loop } }
        set { engine.state.withLock { $0.loop = newValue } }
    }

    /// How many passes to play before stopping (nil = forever): of the item
    /// with `loopMode == .item`, counted from its first pass; of the whole
    /// queue with `.playlist`, counted from when this is set.
    public var loopPasses: Int? {
        get { engine.state.withLock { $0.passLimit } }
        set {
            engine.state.withLock {
                $0.passLimit = newValue
                $0.playlistWraps = 0
            }
        }
    }

    public var currentItem: PlayerItem? { engine.state.withLock { $0.queue.current } }

    /// The current item's time of what is being presented.
    public func currentTime() -> MediaTime { currentItem?.currentTime() ?? .zero }

    /// Plays `item` instead of the current one, from its start.
    public func replaceCurrentItem(with item: PlayerItem?) {
        engine.state.withLock { $0.queue.replaceCurrent(with: item) }
        _ = engine.restart(item: item, at: .zero, exact: false)
        engine.post(.currentItemChanged(item))
    }

    // MARK: Seeking

    /// Seeks to the keyframe at or before `time` (AVPlayer's default tolerance).
    /// - Returns: true when the seek completed, false if a later seek cancelled it.
    @discardableResult
    public func seek(to time: MediaTime) async -> Bool {
        await seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity)
    }

    /// Seeks within the tolerances; zero tolerances present exactly the frame
    /// at `time`. Completes when a frame of the new position is presented.
    @discardableResult
    public func seek(to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) async -> Bool {
        guard let item = currentItem, time.isNumeric else { return false }
        let duration = item.duration
        let clamped = max(.zero, duration.isNumeric ? min(time, duration) : time)
        let exact = toleranceBefore.isNumeric && toleranceBefore <= MediaTime(value: 1, timescale: 1000)
        let serial = engine.restart(item: item, at: clamped, exact: exact)
        engine.observers.timeJumped(to: clamped)
        engine.post(.timeJumped(item, to: clamped))
        return await engine.waitForSeek(serial: serial)
    }

    // MARK: Observation

    /// Calls `block` every `interval` of item time while playing, and when
    /// playback starts or stops. Keep the token and pass it to `removeTimeObserver`.
    public func addPeriodicTimeObserver(forInterval interval: MediaTime, queue: DispatchQueue? = nil,
                                        using block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        engine.observers.addPeriodic(interval: interval, queue: queue, callback: block)
    }

    /// Calls `block` when normal playback crosses any of `times`.
    public func addBoundaryTimeObserver(forTimes times: [MediaTime], queue: DispatchQueue? = nil,
                                        using block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        engine.observers.addBoundary(times: times, queue: queue, callback: block)
    }

    /// The observer never fires again and its closure is released.
    public func removeTimeObserver(_ token: TimeObserverToken) {
        engine.observers.remove(token)
    }

    /// Every event from now on, in order.
    public func events() -> AsyncStream<PlayerEvent> { engine.events.stream() }

    /// Calls `handler` with every event from now on, on `queue` (a private serial queue if nil).
    public func addEventHandler(queue: DispatchQueue? = nil, _ handler: @escaping @Sendable (PlayerEvent) -> Void) -> EventHandlerToken {
        EventHandlerToken(id: engine.events.subscribe(queue: queue, handler))
    }

    public func removeEventHandler(_ token: EventHandlerToken) {
        engine.events.unsubscribe(token.id)
    }

    /// Counters and the presentation log.
    public var stats: PlaybackStats { engine.stats }

    /// Stops playback and the player's threads; the outputs keep their last frame.
    public func stop() {
        pause()
        engine.shutdown()
    }
}

public struct EventHandlerToken: Sendable, Hashable {
    let id: Int
}
