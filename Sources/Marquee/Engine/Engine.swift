import FoundationEssentials
import MarqueeFFmpeg
import Synchronization

/// How a player runs: outputs, timing, decoding.
public struct PlayerConfiguration: @unchecked Sendable {
    // @unchecked: the outputs are handed to the engine once, which then uses
    // each from exactly one thread (the contract of VideoOutput/AudioOutput).
    public var videoOutput: (any VideoOutput)?
    public var audioOutput: (any AudioOutput)?
    /// The clock frames are timed against: `MonotonicClock` for real time,
    /// a `VirtualClock` for untimed runs.
    public var hostClock: any HostClock
    /// Real time and the local time zone, for what is scheduled by the time of day.
    public var wallClock: any WallClock = SystemWallClock()
    /// Untimed: every frame is presented, none dropped, as fast as the
    /// machine goes; each output advances its own clock by what it consumes.
    public var untimed: Bool
    /// Video decoder threads; 0: one per core, as `decoderThreads` says.
    public var videoThreads: Int
    /// VA-API or software; hardware that cannot decode falls back to software.
    public var hardwareDecoding: HardwareDecoding
    /// Which pictures are deinterlaced (bwdif), at frame or field rate.
    public var deinterlacing = Deinterlacing()
    public var keepsPresentationLog: Bool
    /// What plays between two playlist items (not between loop passes of one).
    public var betweenItems: PauseBetweenItems = .cut
    /// How one playlist item gives way to the next (not between loop passes of one).
    public var transition: ItemTransition = .cut
    /// When a network item that went away is tried again.
    public var retry = RetrySchedule()
    /// Whether a playlist moves on from an unavailable network item or waits for it.
    public var onUnavailable: UnavailablePolicy = .skip
    /// Seconds a still picture stays up where its item does not say
    /// (`PlayerItem.imageDuration`).
    public var imageDuration = 10.0
    /// How network sources are opened and read ahead.
    public var network = NetworkOptions()
    /// `Player.automaticallyWaitsToMinimizeStalling` at start.
    public var waitsToMinimizeStalling = true
    /// A picture (and the background colour) shown before anything plays.
    public var splash: Splash?
    /// How each item's captions are chosen at start (`Player.setMediaSelectionCriteria`); nil: none shown.
    public var legibleCriteria: MediaSelectionCriteria? = MediaSelectionCriteria()
    /// Holds one stage's thread inside a step once (see `StageStall`).
    @_spi(Testing) public var stageStall: StageStall?

    /// The software decoder's threads: `videoThreads` (frame and slice
    /// threads), libavcodec's choice untimed, and for 0 in real time one per
    /// core on the slices of one frame: frame threads hold a picture each
    /// (12 MB at 4K) and one core keeps up with most streams. The source
    /// adds frame threads when they do not (`DecodePace`).
    var decoderThreads: DecoderThreads {
        if videoThreads != 0 || untimed { return DecoderThreads(count: videoThreads) }
        return DecoderThreads(count: ProcessInfo.processInfo.activeProcessorCount, frames: false)
    }

    public init(videoOutput: (any VideoOutput)?, audioOutput: (any AudioOutput)?, hostClock: any HostClock = MonotonicClock(),
                untimed: Bool = false, videoThreads: Int = 0, hardwareDecoding: HardwareDecoding = HardwareDecoding(),
                keepsPresentationLog: Bool = false) {
        self.videoOutput = videoOutput
        self.audioOutput = audioOutput
        self.hostClock = hostClock
        self.untimed = untimed
        self.videoThreads = videoThreads
        self.hardwareDecoding = hardwareDecoding
        self.keepsPresentationLog = keepsPresentationLog
    }
}

/// A pause between playlist items, for shows that want one.
public enum PauseBetweenItems: Sendable, Equatable {
    /// The next item's first frame follows the last one's at once.
    case cut
    /// The last frame stays up, in silence, this many seconds.
    case hold(seconds: Double)
    /// A picture of one colour (0xRRGGBB), in silence, this many seconds.
    case blank(seconds: Double, rgb: UInt32)

    var seconds: Double {
        switch self {
        case .cut: 0
        case .hold(let seconds), .blank(let seconds, _): seconds
        }
    }
}

/// How the picture goes from one playlist item to the next.
public enum ItemTransition: Sendable, Equatable {
    /// The next item's first frame follows the last one's.
    case cut
    /// The outgoing item's last `seconds / 2` fade to the colour `rgb`
    /// (0xRRGGBB) and the next item's first `seconds / 2` fade up from it,
    /// over the items' own time: nothing is added to the timeline. With a
    /// pause between items, the fade goes down into the pause and up out of it.
    case fade(seconds: Double, rgb: UInt32)
}

/// Where the source stage must (re)start reading.
struct StartRequest: Sendable {
    let serial: Int
    let item: PlayerItem
    /// Item time to start at.
    let time: MediaTime
    let exact: Bool
    /// Timeline position the start is placed at.
    let timelineStart: Double
    /// Read backwards from `time` (a negative rate, a step back).
    var reversed = false
    /// A step: frames passed over before the one shown (0 for the next or the previous frame).
    var step: Int?
}

/// The pipeline behind a `Player`: three stages (source, presenter, audio
/// writer), each a state machine stepped by its own thread (`StageThread`)
/// or, in tests, by an executor on a manual clock. They are joined by
/// bounded queues and a seek serial. Commands from the player change
/// `state` in one place (`send`, Engine+Commands) and raise every stage's
/// signal; each stage keeps its own working state.
final class Engine: @unchecked Sendable {
    // @unchecked: `configuration`'s outputs are each used by one stage only;
    // everything mutable and shared is inside `state` (a Mutex) or is itself
    // thread-safe (queues, clock, stats, observers, events, signals).
    struct State: Sendable {
        var queue: PlayQueue<PlayerItem>
        var cursor = PlaylistCursor()
        var serial = 0
        var start: StartRequest?
        /// Seek continuations, resumed with true when a frame of their serial
        /// shows, false when a later seek supersedes them.
        var seekWaiters: [(serial: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        /// The latest serial a frame (or the end) was presented on: a wait
        /// that starts after its seek completed returns at once.
        var completedSerial = -1
        var playing = false
        /// Below zero plays backwards.
        var rate = 1.0
        /// The latest restart reads backwards (a negative rate, a step back).
        var readsBackwards = false
        /// The rate `play()` plays at.
        var defaultRate = 1.0
        /// Where the latest restart (start, seek, item change) goes: what
        /// `currentTime` reports until a frame of it is on screen.
        var target: (serial: Int, item: PlayerItem, time: MediaTime)?
        /// The presenter ran dry while playing and nothing has shown since.
        var stalled = false
        /// Time stands still until the read-ahead below holds its forward
        /// buffer: after a network item ran dry, or at its start.
        var buffering = false
        /// AVPlayer's `automaticallyWaitsToMinimizeStalling`: a network
        /// item that runs dry waits for its buffer instead of stuttering.
        var waitsToMinimizeStalling = true
        /// The read-ahead of the network item the source stage reads, if any.
        var readAhead: ReadAhead?
        /// The source stage waits for a network item that went away (on its retry schedule).
        var waitingForSource = false
        var timeControl = TimeControl.paused
        /// The last item that could not be played, for a player that ends up
        /// with nothing playable.
        var lastItemError: (any Error)?
        var volume: Float = 1
        var muted = false
        /// The screen power asked for; the presenter switches the output to it.
        var screenOn = true
        /// How items' captions are chosen now; nil: none shown.
        var legibleCriteria: MediaSelectionCriteria?
        /// Counts changes of what is drawn over pictures (an item's captions
        /// read, switched or off; `show-text`), so a paused picture is drawn
        /// again with them.
        var overlayVersion = 0
        /// `Player.showText`: the text and when it goes.
        var osd: (text: String, until: HostTime)?
        /// Playing when the screen went off: `screen on` plays again.
        var resumesWhenScreenOn = false
        /// Wall-clock sync: the schedule the playlist follows; nil otherwise.
        var wall: WallSchedule?
        var status = Player.Status.unknown
        var error: (any Error)?
        var stopped = false
        /// Play order index per item, for the presentation log.
        var itemOrder: [ObjectIdentifier: Int] = [:]
        /// What is on screen (or in the speakers) now.
        var presented: Segment?
        var timeline = 0.0
        /// Stages that reached the end of playback on `serial`.
        var finishedStages: Set<Stage> = []
    }

    enum Stage: Sendable {
        case video, audio
    }

    /// What each stage's thread waits on: raised by the queues it reads or
    /// writes and by every command.
    struct Signals {
        let source = WakeSignal()
        let presenter = WakeSignal()
        let audio = WakeSignal()

        func raiseAll() {
            source.raise()
            presenter.raise()
            audio.raise()
        }
    }

    let configuration: PlayerConfiguration
    let state: Mutex<State>

    /// Where an item's captions say they changed (ready, or none now) or
    /// why they are not: the player's events, and the presenter, which
    /// draws a paused picture again.
    var reportCaptions: @Sendable (PlayerItem, Result<MediaSelectionOption?, any Error>) -> Void {
        { [weak self] item, result in
            guard let self else { return }
            switch result {
            case .success(let option):
                state.withLock { $0.overlayVersion += 1 }
                signals.presenter.raise()
                if let option { post(.captionsLoaded(item, option)) }
            case .failure(let error): post(.captionsUnavailable(item, error))
            }
        }
    }
    let clock = SyncClock()
    let stats: PlaybackStats
    let observers = TimeObservers()
    let events = EventHub()
    let signals = Signals()
    /// Decoded frames: enough to ride out decode-time jitter, and no more
    /// memory than a few large pictures (a VA-API decoder also has only a
    /// few spare surfaces).
    let videoQueue: StageQueue<StageEntry<TimelineFrame>>
    /// Decoded audio.
    let audioQueue: StageQueue<StageEntry<TimelineAudio>>
    /// Set-up fallback reasons already reported: a missing device is said
    /// once per player, not once per item.
    let reportedFallbacks = Mutex<Set<String>>([])
    /// The picture the video output shows now, as it was drawn (the splash,
    /// a blended fading frame, a hardware frame as decoded), for a
    /// screenshot. One more reference to a frame the output holds anyway.
    let onScreen = Mutex<PictureOnScreen?>(nil)
    private(set) var stages: [any EngineStage] = []
    /// One per stage, in `stages`' order: what its thread is doing.
    private(set) var heartbeats: [StageHeartbeat] = []
    private var threads: [StageThread] = []

    /// Untimed, the presenter's queue only keeps the decoder busy.
    static let untimedVideoLimits = StageQueue<StageEntry<TimelineFrame>>.Limits(count: 6, bytes: 48 << 20, seconds: 0.5)
    /// In real time it holds what real time needs, not a fixed count: frames
    /// covering (at the speed they will be shown) the wait for the next vblank, the decoder's slowest frame (a
    /// 1080p keyframe takes up to about 60 ms on two cores) and a late
    /// wake-up, the presenter's next frame, waiting for its vblank, counted
    /// in (`countsTaken`). Each picture held is memory (12 MB at 4K), so at
    /// 25 or 30 fps that is two frames ahead of the one on screen, where six
    /// and the presenter's used to be; the count and bytes still bound a high frame rate.
    static func videoLimits(refresh: Duration?) -> StageQueue<StageEntry<TimelineFrame>>.Limits {
        let seconds = (refresh?.secondsDouble ?? 1.0 / 60) + slowestDecode + lateWakeUp
        return .init(count: untimedVideoLimits.count, bytes: untimedVideoLimits.bytes, seconds: seconds, countsTaken: true)
    }
    static let slowestDecode = 0.06
    static let lateWakeUp = 0.02
    static let audioLimits = StageQueue<StageEntry<TimelineAudio>>.Limits(count: .max, bytes: 4 << 20, seconds: 1.0)

    /// - Parameter threaded: false leaves the stages to be stepped by the
    ///   caller (tests drive them on a manual clock).
    init(items: [PlayerItem], configuration: PlayerConfiguration, threaded: Bool = true) {
        self.configuration = configuration
        state = Mutex(State(queue: PlayQueue(items: items), waitsToMinimizeStalling: configuration.waitsToMinimizeStalling,
                            legibleCriteria: configuration.legibleCriteria))
        stats = PlaybackStats(keepsLog: configuration.keepsPresentationLog)
        videoQueue = StageQueue(limits: configuration.untimed ? Self.untimedVideoLimits
                                    : Self.videoLimits(refresh: configuration.videoOutput?.refreshInterval),
                                consumer: signals.presenter, producer: signals.source)
        audioQueue = StageQueue(limits: Self.audioLimits, consumer: signals.audio, producer: signals.source)
        stages = [SourceStage(engine: self), PresenterStage(engine: self)]
        if let output = configuration.audioOutput { stages.append(AudioStage(engine: self, output: output)) }
        heartbeats = stages.map { StageHeartbeat(name: $0.name) }
        guard threaded else { return }
        threads = zip(stages, heartbeats).map {
            StageThread(stage: $0, clock: configuration.hostClock, heartbeat: $1, stall: configuration.stageStall)
        }
    }

    /// Stops all stages and waits for their threads; outputs keep their last frame.
    func shutdown() {
        state.withLock { $0.stopped = true }
        signals.raiseAll()
        threads.forEach { $0.join() }
        events.finish()
    }

    /// Derives whether time moves from what `State` knows and reports a change.
    /// Called wherever one of its inputs changes: a command, a frame of a
    /// new serial on screen, a stall, the end.
    func refreshTimeControl() {
        let changed = state.withLock { state -> TimeControl? in
            let now: TimeControl = if !state.playing {
                .paused
            } else if state.queue.current == nil {
                .waiting(.noItemToPlay)
            } else if state.completedSerial < state.serial || state.stalled || state.buffering {
                .waiting(.toMinimizeStalls)
            } else {
                .playing
            }
            guard now != state.timeControl else { return nil }
            state.timeControl = now
            return now
        }
        if let changed { post(.timeControlStatusChanged(changed.status, reason: changed.reason)) }
    }

    func waitForSeek(serial: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            let settled = state.withLock { state -> Bool? in
                guard state.serial == serial else { return false }
                if state.completedSerial >= serial { return true }
                state.seekWaiters.append((serial, continuation))
                return nil
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }

    /// A frame (or audio) of `serial` is now presented: seeks on it are done.
    func completeSeeks(serial: Int) {
        let done = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.completedSerial = max(state.completedSerial, serial)
            let done = state.seekWaiters.filter { $0.serial == serial }.map(\.continuation)
            state.seekWaiters.removeAll { $0.serial == serial }
            return done
        }
        done.forEach { $0.resume(returning: true) }
        refreshTimeControl()
    }

    func setStatus(_ status: Player.Status, error: (any Error)? = nil) {
        let changed = state.withLock { state -> Bool in
            defer { state.status = status; state.error = error }
            return state.status != status
        }
        if changed { events.post(.statusChanged(status)) }
    }

    /// `item`'s place in the playlist (played items, then the queue): what a wall schedule indexes.
    func playlistIndex(of item: PlayerItem) -> Int? {
        state.withLock { state in
            if let index = state.queue.played.firstIndex(where: { $0 === item }) { return index }
            return state.queue.items.firstIndex { $0 === item }.map { state.queue.played.count + $0 }
        }
    }

    func itemIndex(_ item: PlayerItem) -> Int {
        state.withLock { state in
            let key = ObjectIdentifier(item)
            if let index = state.itemOrder[key] { return index }
            let index = state.itemOrder.count
            state.itemOrder[key] = index
            return index
        }
    }

    func post(_ event: PlayerEvent) { events.post(event) }
}
