import Glibc
import MarqueeCore

/// One client of the control socket as state, with no I/O: the bytes it
/// sent that do not make a line yet, what is waiting to be written to it,
/// and what it observes. `ControlSocketServer` does the reading and writing.
struct ControlConnection {
    /// Bytes waiting to be written beyond which a client that does not read
    /// is dropped: its events must not grow the player's memory.
    static let outboxLimit = 1 << 20
    /// Bytes waiting beyond which the client's requests are not read until
    /// it has read its replies: a client that sends without reading is
    /// slowed down, not dropped (only events can reach `outboxLimit`).
    static let readLimit = 256 << 10

    var splitter = LineSplitter()
    /// Written from `written` on; compacted once the front half is sent.
    private(set) var outbox: [UInt8] = []
    private var written = 0
    var subscription: EventSubscription?
    /// When its status events are due, while it observes them.
    var statusSchedule: StatusSchedule?
    /// Over `outboxLimit`: the connection is closed.
    private(set) var overflowed = false
    /// The client has finished sending (shut down its side, as `socat`
    /// does at the end of its input): no more reading, but an observer is
    /// still sent its events until it closes.
    var finishedSending = false

    /// Whether the connection still has a use once its client has finished sending.
    var isNeeded: Bool { !finishedSending || hasOutput || subscription != nil }

    var hasOutput: Bool { written < outbox.count }

    /// Whether to read more requests now.
    var wantsInput: Bool { !finishedSending && outbox.count - written < Self.readLimit }

    /// Queues `line` and its line break; false (and `overflowed`) when the
    /// client has fallen too far behind.
    @discardableResult
    mutating func queue(_ line: String) -> Bool {
        guard !overflowed else { return false }
        outbox.append(contentsOf: line.utf8)
        outbox.append(UInt8(ascii: "\n"))
        if outbox.count - written > Self.outboxLimit {
            overflowed = true
            outbox.removeAll()
            written = 0
        }
        return !overflowed
    }

    /// Starts or replaces what the connection observes, at `now`.
    mutating func observe(_ subscription: EventSubscription?, now: HostTime) {
        self.subscription = subscription
        statusSchedule = subscription?.statusInterval.map { StatusSchedule(every: $0, from: now) }
    }

    /// Whether the connection wants `event`.
    func observes(_ event: ControlEvent) -> Bool {
        subscription?.kinds.contains(event.kind) == true
    }

    /// Writes what it can to `descriptor` without blocking.
    /// - Returns: false when the connection failed (the peer went away).
    mutating func flush(to descriptor: Int32) -> Bool {
        while written < outbox.count {
            let count = outbox[written...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN
            }
            written += count
        }
        outbox.removeAll(keepingCapacity: outbox.count < 64 * 1024)
        written = 0
        return true
    }
}
