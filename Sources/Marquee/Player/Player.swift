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
    /// Whether the player can play, as AVPlayer's `status` (whether time
    /// moves is `timeControlStatus`).
    public enum Status: String, Sendable {
        /// No item has been opened yet.
        case unknown
        /// An item opened: the player plays.
        case readyToPlay
        /// Playback ended without anything played because every item failed
        /// (see `error`); an item that opens later makes it `readyToPlay` again.
        case failed
    }

    let engine: Engine

    public init(items: [PlayerItem] = [], configuration: PlayerConfiguration) {
        engine = Engine(items: items, configuration: configuration)
    }

    public convenience init(item: PlayerItem?, configuration: PlayerConfiguration) {
        self.init(items: item.map { [$0] } ?? [], configuration: configuration)
    }

    /// A player whose stages nobody runs: the caller steps them (tests, on a manual clock).
    init(items: [PlayerItem], configuration: PlayerConfiguration, threaded: Bool) {
        engine = Engine(items: items, configuration: configuration, threaded: threaded)
    }

    deinit { engine.shutdown() }

    // MARK: Playback

    /// Starts or resumes playback at `defaultRate`.
    public func play() { engine.send(.play) }

    public func pause() { engine.send(.pause) }

    /// The speed asked for: 0 when paused, below zero backwards. Setting it
    /// plays at that speed with audio kept at pitch (and muted backwards);
    /// no value stops a player or crashes it:
    /// - 0 pauses;
    /// - a value is clamped by its size into `PlaybackRate.range` (1/16...16;
    ///   +infinity and 1000 play at 16, -1000 at -16), and `rate` reads the
    ///   clamped value;
    /// - a negative value for an item that is open and cannot play
    ///   backwards (`PlayerItem.canPlayReverse`, `reverseRefusal` says why)
    ///   is ignored; one not open yet that turns out not to plays forwards
    ///   at that speed (`.reverseRefused`);
    /// - NaN is ignored: nothing changes.
    public var rate: Double {
        get { engine.state.withLock { $0.playing ? $0.rate : 0 } }
        set {
            guard !newValue.isNaN else { return }
            guard let rate = PlaybackRate.clampedEitherWay(newValue) else { pause(); return }
            if rate < 0, let item = currentItem, item.status != .unknown, !item.canPlayReverse { return }
            engine.send(.setRate(rate))
        }
    }

    /// Pauses and shows the frame `count` frames after the one on screen
    /// (before it, for a negative count), frame-exact, as AVPlayerItem's
    /// `step(byCount:)`; the item's first and last frames are as far as a
    /// step goes. Nothing happens for 0, without a current item, or for a
    /// step the item cannot take (`canStepForward`, `canStepBackward`).
    /// - Returns: a wait that ends when the frame is on screen (true), or a
    ///   later seek or step supersedes it (false); nil when nothing happens.
    @discardableResult
    public func step(byCount count: Int) -> (@Sendable () async -> Bool)? {
        guard let item = currentItem, count > 0 ? item.canStepForward : item.canStepBackward,
              case .restarted(let serial) = engine.send(.step(count)) else { return nil }
        let engine = engine
        return { await engine.waitForSeek(serial: serial) }
    }

    /// The rate `play()` plays at (1 unless set), as AVPlayer's. A positive
    /// value is clamped into `PlaybackRate.range`; zero, negative values and
    /// NaN are ignored.
    public var defaultRate: Double {
        get { engine.state.withLock { $0.defaultRate } }
        set {
            guard let rate = PlaybackRate.clamped(newValue) else { return }
            engine.send(.setDefaultRate(rate))
        }
    }

    /// Switches the display off, so the monitor sleeps, and pauses: sound
    /// and decoding stop and the player is as idle as when paused. On sets
    /// the mode again with the last picture up and plays again if it was
    /// playing when the screen went off (and was not paused or stepped
    /// since). `play()` or a rate while off turns the screen on too. The
    /// presenter applies the switch on its own thread within a step; an
    /// output that refuses it is reported as a `.videoOutputFailed` event.
    /// Outputs without a screen (`ScreenPowerOutput`) just show nothing
    /// while off. The one entry point for every control path (commands,
    /// a schedule).
    public func setScreenPower(on: Bool) { engine.send(.setScreenPower(on)) }

    /// How the player chooses each item's captions, like AVPlayer's
    /// `setMediaSelectionCriteria(_:forMediaCharacteristic:)`: the first
    /// option in a preferred language, else the item's first; nil shows
    /// none. Applies to the current item at once and to each item as it
    /// opens, except those whose captions were chosen (`PlayerItem.select`).
    public func setMediaSelectionCriteria(_ criteria: MediaSelectionCriteria?, forMediaCharacteristic characteristic: MediaCharacteristic) {
        let current = engine.state.withLock { state in
            state.legibleCriteria = criteria
            return state.queue.current
        }
        current?.prepareCaptions(criteria: criteria, report: engine.reportCaptions)
    }

    /// `text` along the bottom of the picture for `seconds`, as mpv's
    /// show-text: drawn by the presenter into each picture it converts
    /// for a scan-out output (a paused one is drawn again with it, and
    /// without it when the time is up), replacing any shown. A show on a
    /// `LayeredDisplay` draws it as an overlay instead.
    public func showText(_ text: String, seconds: Double) {
        let until = engine.configuration.hostClock.now() + .nanoseconds(Int64(max(0, seconds) * 1e9))
        engine.state.withLock {
            $0.osd = (text, until)
            $0.overlayVersion += 1
        }
        engine.signals.presenter.raise()
    }

    /// The criteria captions are chosen by now; nil: none shown.
    public func mediaSelectionCriteria(forMediaCharacteristic characteristic: MediaCharacteristic) -> MediaSelectionCriteria? {
        engine.state.withLock { $0.legibleCriteria }
    }

    /// Whether the screen is on, as last asked (`setScreenPower(on:)`); true at the start.
    public var isScreenOn: Bool { engine.state.withLock { $0.screenOn } }

    public var status: Status { engine.state.withLock { $0.status } }
    /// Why `status` is `.failed`: the last item's error.
    public var error: (any Error)? { engine.state.withLock { $0.error } }

    /// Whether time moves: paused, waiting to play (see
    /// `reasonForWaitingToPlay`) or playing. Changes are posted as
    /// `.timeControlStatusChanged` events.
    public var timeControlStatus: TimeControlStatus { engine.state.withLock { $0.timeControl.status } }

    /// Why the player waits while `timeControlStatus` is
    /// `.waitingToPlayAtSpecifiedRate`; nil otherwise.
    public var reasonForWaitingToPlay: WaitingReason? { engine.state.withLock { $0.timeControl.reason } }

    /// 0...1 software gain applied to the audio; a value outside is clamped, NaN ignored.
    public var volume: Float {
        get { engine.state.withLock { $0.volume } }
        set { engine.send(.setVolume(newValue)) }
    }

    /// AVPlayer's property: when a network item's buffer runs dry, time
    /// stands still (`waitingToPlayAtSpecifiedRate`, `.toMinimizeStalls`)
    /// with the last frame up until its `preferredForwardBufferDuration`
    /// is buffered again, rather than playing frames as they trickle in.
    /// True by default.
    public var automaticallyWaitsToMinimizeStalling: Bool {
        get { engine.state.withLock { $0.waitsToMinimizeStalling } }
        set { engine.send(.setWaitsToMinimizeStalling(newValue)) }
    }

    public var isMuted: Bool {
        get { engine.state.withLock { $0.muted } }
        set { engine.send(.setMuted(newValue)) }
    }

    public var actionAtItemEnd: ActionAtItemEnd {
        get { engine.state.withLock { $0.cursor.action } }
        set { engine.send(.setActionAtItemEnd(newValue)) }
    }

    /// Loop the current item or the whole queue; takes effect at the next end.
    public var loopMode: LoopMode {
        get { engine.state.withLock { $0.cursor.loop } }
        set { engine.send(.setLoopMode(newValue)) }
    }

    /// How many passes to play before stopping (nil = forever): of the item
    /// with `loopMode == .item`, counted from its first pass; of the whole
    /// queue with `.playlist`, counted from when this is set.
    public var loopPasses: Int? {
        get { engine.state.withLock { $0.cursor.passLimit } }
        set { engine.send(.setLoopPasses(newValue)) }
    }

    public var currentItem: PlayerItem? { engine.state.withLock { $0.queue.current } }

    /// What the player's threads are doing and how far playback got, now:
    /// for a watchdog, which `Liveness` turns into alive or stalled.
    public func health() -> PlayerHealth { engine.health() }

    /// The current item's time of what is presented; after a seek or an item
    /// change, where it goes, until its first frame is presented (so two
    /// relative seeks in a row add up, as AVPlayer's do).
    public func currentTime() -> MediaTime {
        let (current, pending) = engine.state.withLock { state -> (PlayerItem?, MediaTime?) in
            guard let target = state.target, target.serial > state.completedSerial,
                  target.item === state.queue.current else { return (state.queue.current, nil) }
            return (state.queue.current, target.time)
        }
        return pending ?? current?.currentTime() ?? .zero
    }

    /// Plays `item` instead of the current one, from its start.
    public func replaceCurrentItem(with item: PlayerItem?) {
        engine.send(.replaceCurrentItem(item))
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
        let exact = toleranceBefore.isNumeric && toleranceBefore <= MediaTime(value: 1, timescale: 1000)
        guard let wait = startSeek(to: time, exact: exact) else { return false }
        return await wait()
    }

    /// Starts a seek like `seek(to:toleranceBefore:toleranceAfter:)` but
    /// returns at once, so seeks from a command channel are issued in the
    /// order the commands came (separate `Task`s may start in any order).
    /// - Parameters:
    ///   - time: item time; clamped to the item.
    ///   - exact: present exactly the frame at `time` (else the keyframe before it).
    /// - Returns: a wait that ends when a frame of the seek is presented (true)
    ///   or a later seek supersedes it (false); nil when there is no current item.
    public func startSeek(to time: MediaTime, exact: Bool) -> (@Sendable () async -> Bool)? {
        guard case .restarted(let serial) = engine.send(.seek(time, exact: exact)) else { return nil }
        let engine = engine
        return { await engine.waitForSeek(serial: serial) }
    }

    // MARK: Observation

    /// Calls `block` every `interval` of item time while playing, and when
    /// playback starts or stops. Keep the token and pass it to
    /// `removeTimeObserver`. An interval under 1 ms (zero, negative, NaN,
    /// infinite) is taken as 1 ms.
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

    /// Every event from now on, in order, into a buffer of `bufferLimit`
    /// events: a consumer that falls behind loses the oldest ones, and the
    /// next event it reads is `.eventsDropped(count)` in their place, so
    /// memory stays bounded whoever stops reading.
    public func events(bufferLimit: Int = PlayerEvents.defaultBufferLimit) -> PlayerEvents {
        engine.events.stream(limit: bufferLimit)
    }

    /// The current time every `interval` of item time while playing, and
    /// when playback starts or stops: a periodic time observer as a
    /// sequence. A reader that falls behind gets the latest time; the
    /// observer is removed when the sequence ends (its task is cancelled or
    /// the sequence is released).
    public func periodicTimes(forInterval interval: MediaTime) -> AsyncStream<MediaTime> {
        let (stream, continuation) = AsyncStream<MediaTime>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let token = addPeriodicTimeObserver(forInterval: interval) { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.removeTimeObserver(token) }
        return stream
    }

    /// Calls `handler` with every event from now on, on `queue` (a private serial queue if nil).
    public func addEventHandler(queue: DispatchQueue? = nil, _ handler: @escaping @Sendable (PlayerEvent) -> Void) -> EventHandlerToken {
        EventHandlerToken(id: engine.events.subscribe(queue: queue, handler))
    }

    public func removeEventHandler(_ token: EventHandlerToken) {
        engine.events.unsubscribe(token.id)
    }

    /// Counters and the presentation log.
    public var stats: PlaybackStats { engine.stats }

    /// The picture on the video output now, as it was drawn: the splash,
    /// a frame (blended toward the fade's colour inside a fade), or nil
    /// before the first. A hardware-decoded frame is still in its dmabuf
    /// (`DMABufStorage.download`); `ScreenCapture` composes any of them as
    /// the display shows them. Thread-safe; the frame stays valid while held.
    public func pictureOnScreen() -> PictureOnScreen? { engine.onScreen.withLock { $0 } }

    /// Stops playback and the player's threads; the outputs keep their last frame.
    public func stop() {
        pause()
        engine.shutdown()
    }
}

public struct EventHandlerToken: Sendable, Hashable {
    let id: Int
}
