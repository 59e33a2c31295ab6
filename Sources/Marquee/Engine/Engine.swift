import Foundation
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
    /// Untimed: every frame is presented, none dropped, as fast as the
    /// machine goes; each output advances its own clock by what it consumes.
    public var untimed: Bool
    /// Video decoder threads; 0 picks one per core.
    public var videoThreads: Int
    /// VA-API or software; hardware that cannot decode falls back to software.
    public var hardwareDecoding: HardwareDecoding
    public var keepsPresentationLog: Bool
    /// What plays between two playlist items (not between loop passes of one).
    public var betweenItems: PauseBetweenItems = .cut

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

/// Where the source thread must (re)start reading.
struct StartRequest: Sendable {
    let serial: Int
    let item: PlayerItem
    /// Item time to start at.
    let time: MediaTime
    let exact: Bool
    /// Timeline position the start is placed at.
    let timelineStart: Double
}

/// The pipeline behind a `Player`: a source thread (demux + decode), a
/// presenter thread and an audio writer thread, joined by bounded queues and
/// a seek serial. Shared state lives in `state`; each thread keeps its own
/// working state in locals.
final class Engine: @unchecked Sendable {
    // @unchecked: `configuration`'s outputs are each used by one thread only;
    // everything mutable and shared is inside `state` (a Mutex) or is itself
    // thread-safe (queues, clock, stats, observers, events).
    struct State: Sendable {
        var queue: PlayQueue<PlayerItem>
        var loop = LoopMode.none
        /// With `.item` or `.playlist` looping: how many passes (of the item,
        /// of the whole queue) to play in all (nil = forever).
        var passLimit: Int?
        /// Times the source has gone back to the start of the queue.
        var playlistWraps = 0
        var action = ActionAtItemEnd.advance
        var serial = 0
        var start: StartRequest?
        /// Seek continuations, resumed with true when a frame of their serial
        /// shows, false when a later seek supersedes them.
        var seekWaiters: [(serial: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var playing = false
        var rate = 1.0
        var volume: Float = 1
        var muted = false
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

    let configuration: PlayerConfiguration
    let state: Mutex<State>
    let clock = SyncClock()
    let stats: PlaybackStats
    let observers = TimeObservers()
    let events = EventHub()
    /// Decoded frames: a few, enough to ride out decode-time jitter.
    let videoQueue = BlockingQueue<VideoEntry>(capacity: 6)
    /// Decoded audio, in seconds.
    let audioQueue = BlockingQueue<AudioEntry>(capacity: 1.0)
    private var threads: [Thread] = []
    /// Used by the presenter thread only.
    let converter = PixelConverter()
    /// Set-up fallback reasons already reported: a missing device is said
    /// once per player, not once per item.
    let reportedFallbacks = Mutex<Set<String>>([])

    init(items: [PlayerItem], configuration: PlayerConfiguration) {
        self.configuration = configuration
        state = Mutex(State(queue: PlayQueue(items: items)))
        stats = PlaybackStats(keepsLog: configuration.keepsPresentationLog)
        // Each thread names itself: on Linux a name set before start() never
        // reaches the kernel, where top -H, perf and crash reports read it.
        threads = [
            Thread { [unowned self] in
                Thread.current.name = "marquee.source"
                runSource()
            },
            Thread { [unowned self] in
                Thread.current.name = "marquee.present"
                runPresenter()
            },
            Thread { [unowned self] in
                Thread.current.name = "marquee.audio"
                runAudioWriter()
            },
        ]
        for thread in threads {
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Stops all threads; outputs keep their last frame.
    func shutdown() {
        state.withLock { $0.stopped = true }
        videoQueue.close()
        audioQueue.close()
        while threads.contains(where: { !$0.isFinished }) { usleep(1_000) }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    // MARK: - Commands (any thread)

    /// Starts reading `item` at `time` on a new serial; stale data is dropped
    /// everywhere and pending seeks report that they were superseded.
    func restart(item: PlayerItem?, at time: MediaTime, exact: Bool) -> Int {
        let (serial, superseded) = state.withLock { state -> (Int, [CheckedContinuation<Bool, Never>]) in
            state.serial += 1
            state.finishedStages = []
            let superseded = state.seekWaiters.map(\.continuation)
            state.seekWaiters.removeAll()
            if let item {
                // The clock restarts with the new serial, so any timeline
                // position works; continuing from the current one keeps it monotonic.
                state.start = StartRequest(serial: state.serial, item: item, time: time, exact: exact,
                                           timelineStart: state.timeline)
            } else {
                state.start = nil
            }
            return (state.serial, superseded)
        }
        clock.invalidate()
        videoQueue.removeAll { $0.serial < serial }
        audioQueue.removeAll { $0.serial < serial }
        superseded.forEach { $0.resume(returning: false) }
        return serial
    }

    func waitForSeek(serial: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            let current = state.withLock { state -> Bool in
                guard state.serial == serial else { return false }
                state.seekWaiters.append((serial, continuation))
                return true
            }
            if !current { continuation.resume(returning: false) }
        }
    }

    /// A frame (or audio) of `serial` is now presented: seeks on it are done.
    func completeSeeks(serial: Int) {
        let done = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            let done = state.seekWaiters.filter { $0.serial == serial }.map(\.continuation)
            state.seekWaiters.removeAll { $0.serial == serial }
            return done
        }
        done.forEach { $0.resume(returning: true) }
    }

    func setStatus(_ status: Player.Status, error: (any Error)? = nil) {
        let changed = state.withLock { state -> Bool in
            defer { state.status = status; state.error = error }
            return state.status != status
        }
        if changed { events.post(.statusChanged(status)) }
    }

    /// The item that plays after `item` ends (after pass `pass` of it), by
    /// the loop mode and end action.
    func itemAfter(_ item: PlayerItem, pass: Int = 0) -> PlayerItem? {
        state.withLock { state in
            if state.loop == .item {
                if let limit = state.passLimit, pass + 1 >= limit { return nil }
                return item
            }
            let sequence = state.queue.items + (state.loop == .playlist ? state.queue.played : [])
            guard let index = sequence.firstIndex(where: { $0 === item }) else { return state.queue.current }
            if state.loop == .none, state.action != .advance { return nil }
            let next = index + 1
            if next < sequence.count, state.loop != .playlist { return sequence[next] }
            guard state.loop == .playlist, let candidate = next < sequence.count ? sequence[next] : sequence.first else { return nil }
            // `sequence` starts at the item presented now, not at the queue's
            // start: a wrap can fall anywhere in it.
            if let limit = state.passLimit, Self.wraps(from: item, to: candidate, in: state.queue), state.playlistWraps + 1 >= limit {
                return nil
            }
            return candidate
        }
    }

    /// The source moved on from `item` to `next`: a new pass of the queue if
    /// `next` comes first in the queue's order (counted for `passLimit`).
    func noteStep(from item: PlayerItem, to next: PlayerItem) {
        state.withLock { state in
            if state.loop == .playlist, Self.wraps(from: item, to: next, in: state.queue) { state.playlistWraps += 1 }
        }
    }

    /// `played + items` keeps the queue's order as items are presented and
    /// as a playlist wraps, while the source reads ahead of both.
    private static func wraps(from item: PlayerItem, to next: PlayerItem, in queue: PlayQueue<PlayerItem>) -> Bool {
        let order = queue.played + queue.items
        guard let from = order.firstIndex(where: { $0 === item }), let to = order.firstIndex(where: { $0 === next }) else { return false }
        return to <= from
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
}
