import Foundation
import MarqueeControl
import MarqueeHTTP
import Synchronization

/// The events of one `GET /events` stream: what the player's controls
/// emit, queued until the connection's thread takes them, plus a status
/// event every `statusInterval` seconds when asked (`?status=2`).
///
/// Bounded: a client that reads nothing loses the oldest events past 256,
/// and is told how many were lost in the next one it gets. Thread-safe.
final class EventFeedQueue: HTTPEventFeed, @unchecked Sendable {
    // @unchecked: everything mutable is behind `lock`, a pthread condition's mutex.
    static let capacity = 256

    private var lock = pthread_mutex_t()
    private var arrived = pthread_cond_t()
    private var queue: [String] = []
    private var dropped = 0
    private var closed = false
    private var nextStatus: Double?
    private let statusInterval: Double?
    private let status: @Sendable () -> ControlEvent
    private let onClose: @Sendable (EventFeedQueue) -> Void

    /// - Parameters:
    ///   - status: the status event, made on the connection's thread when one is due.
    ///   - onClose: called once, when the stream ends, so the producer forgets the feed.
    init(statusInterval: Double?, status: @escaping @Sendable () -> ControlEvent, onClose: @escaping @Sendable (EventFeedQueue) -> Void) {
        self.statusInterval = statusInterval
        self.status = status
        self.onClose = onClose
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&arrived, &attributes)
        pthread_condattr_destroy(&attributes)
        pthread_mutex_init(&lock, nil)
        nextStatus = statusInterval.map { Self.now() + $0 }
    }

    deinit {
        pthread_cond_destroy(&arrived)
        pthread_mutex_destroy(&lock)
    }

    /// Queues `event` for the stream (from any thread).
    func push(_ event: ControlEvent) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard !closed else { return }
        queue.append(event.line)
        if queue.count > Self.capacity {
            queue.removeFirst()
            dropped += 1
        }
        pthread_cond_signal(&arrived)
    }

    func next(timeout: Duration) -> EventFeedResult {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        let limit = Self.now() + Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        while true {
            if closed { return .end }
            if !queue.isEmpty {
                var line = queue.removeFirst()
                if dropped > 0 {
                    line = ControlEvent(.error, fields: ["source": .string("events"), "message": .string("\(dropped) events dropped: the stream fell behind")]).line
                        + "\n" + line
                    dropped = 0
                }
                return .data(Array(line.split(separator: "\n").map { "data: \($0)\n\n" }.joined().utf8))
            }
            let now = Self.now()
            if let due = nextStatus, due <= now, let interval = statusInterval {
                nextStatus = max(due + interval, now)
                pthread_mutex_unlock(&lock)
                let line = status().line
                pthread_mutex_lock(&lock)
                return .event(line)
            }
            let wakeAt = min(limit, nextStatus ?? limit)
            if wakeAt <= now { return .idle }
            var deadline = timespec(tv_sec: Int(wakeAt), tv_nsec: Int((wakeAt - wakeAt.rounded(.down)) * 1e9))
            pthread_cond_timedwait(&arrived, &lock, &deadline)
        }
    }

    func close() {
        pthread_mutex_lock(&lock)
        let first = !closed
        closed = true
        queue.removeAll()
        pthread_cond_broadcast(&arrived)
        pthread_mutex_unlock(&lock)
        if first { onClose(self) }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
