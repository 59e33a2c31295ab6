import FoundationEssentials
import Marquee
import MarqueeControl
import MarqueeHTTP
import Synchronization

/// The events of one `GET /events` stream: what the player's controls
/// emit, queued until the connection's thread takes them, plus a status
/// event every `statusInterval` seconds when asked (`?status=2`).
///
/// Bounded: a client that reads nothing loses the oldest events past 256,
/// and is told how many were lost in the next one it gets. Thread-safe:
/// the queue is behind a Mutex, and the connection's thread waits on a
/// `WakeSignal` that `push` and `close` raise.
final class EventFeedQueue: HTTPEventFeed, Sendable {
    static let capacity = 256

    private struct State {
        var queue: [String] = []
        var dropped = 0
        var closed = false
        var schedule: StatusSchedule?
    }

    /// What `next` does after looking at the state.
    private enum Turn {
        case end, idle, status
        case line(String)
        case wait(until: HostTime)
    }

    private let state: Mutex<State>
    private let arrived = WakeSignal()
    private let clock = MonotonicClock()
    private let status: @Sendable () -> ControlEvent
    private let onClose: @Sendable (EventFeedQueue) -> Void

    /// - Parameters:
    ///   - status: the status event, made on the connection's thread when one is due.
    ///   - onClose: called once, when the stream ends, so the producer forgets the feed.
    init(statusInterval: Double?, status: @escaping @Sendable () -> ControlEvent, onClose: @escaping @Sendable (EventFeedQueue) -> Void) {
        state = Mutex(State(schedule: statusInterval.map { [clock] in StatusSchedule(every: $0, from: clock.now()) }))
        self.status = status
        self.onClose = onClose
    }

    /// Queues `event` for the stream (from any thread).
    func push(_ event: ControlEvent) {
        let queued = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.queue.append(event.line)
            if state.queue.count > Self.capacity {
                state.queue.removeFirst()
                state.dropped += 1
            }
            return true
        }
        if queued { arrived.raise() }
    }

    func next(timeout: Duration) -> EventFeedResult {
        let limit = clock.now() + timeout
        while true {
            let now = clock.now()
            let turn = state.withLock { state -> Turn in
                if state.closed { return .end }
                if !state.queue.isEmpty {
                    var line = state.queue.removeFirst()
                    if state.dropped > 0 {
                        let lost = ControlEvent(.error, fields: ["source": .string("events"),
                                                                 "message": .string("\(state.dropped) events dropped: the stream fell behind")])
                        line = lost.line + "\n" + line
                        state.dropped = 0
                    }
                    return .line(line)
                }
                if state.schedule?.fire(at: now) == true { return .status }
                let wakeAt = min(limit, state.schedule?.due ?? limit)
                return wakeAt <= now ? .idle : .wait(until: wakeAt)
            }
            switch turn {
            case .end: return .end
            case .idle: return .idle
            // Made outside the lock: the status reads the player.
            case .status: return .event(status().line)
            case .line(let line): return .data(Array(line.split(separator: "\n").map { "data: \($0)\n\n" }.joined().utf8))
            case .wait(let deadline): arrived.wait(untilMonotonic: deadline)
            }
        }
    }

    func close() {
        let first = state.withLock { state -> Bool in
            defer {
                state.closed = true
                state.queue.removeAll()
            }
            return !state.closed
        }
        arrived.raise()
        if first { onClose(self) }
    }
}
