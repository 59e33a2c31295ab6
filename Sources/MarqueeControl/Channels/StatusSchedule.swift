import MarqueeCore

/// When an observer's status events are due: every `interval` from when it
/// asked, on CLOCK_MONOTONIC (`HostTime`), without drifting; a wake-up that
/// comes late skips what it missed rather than sending a burst. Shared by
/// the control socket's connections and the HTTP API's event streams.
public struct StatusSchedule: Sendable, Equatable {
    public let interval: Duration
    /// When the next status event is due.
    public private(set) var due: HostTime

    /// - Parameter seconds: the interval (`EventSubscription.statusInterval`).
    public init(every seconds: Double, from now: HostTime) {
        interval = .nanoseconds(Int64((seconds * 1e9).rounded()))
        due = now + interval
    }

    /// Whether a status event is due at `now`; when it is, the next one is scheduled.
    public mutating func fire(at now: HostTime) -> Bool {
        guard due <= now else { return false }
        due = due + interval
        if due <= now { due = now + interval }
        return true
    }
}
