/// When to try a source again that has gone away: the first retry after
/// `initial` seconds, each next one twice as late, up to `cap`; every delay
/// moved by up to `jitter` of itself, so screens that lost one server
/// together do not all come back to it in the same second.
public struct RetrySchedule: Sendable, Equatable {
    public var initial: Double
    public var cap: Double
    /// A fraction: 0.1 moves each delay by up to 10 % either way.
    public var jitter: Double

    /// Out-of-range values are brought into range: `initial` at least 10 ms,
    /// `cap` at least `initial`, `jitter` within 0...0.5.
    public init(initial: Double = 1, cap: Double = 30, jitter: Double = 0.1) {
        self.initial = initial.isFinite ? max(0.01, initial) : 1
        self.cap = cap.isFinite ? max(self.initial, cap) : 30
        self.jitter = jitter.isFinite ? min(0.5, max(0, jitter)) : 0.1
    }

    /// Seconds before retry number `attempt` (1 = the first), given `unit`,
    /// a random number in -1...1 (the caller's, so tests can fix it). Never past `cap`.
    public func delay(beforeRetry attempt: Int, unit: Double) -> Double {
        let doublings = Double(min(max(attempt, 1) - 1, 62))
        var base = initial
        for _ in 0..<Int(doublings) where base < cap { base *= 2 }
        base = min(base, cap)
        return min(cap, base * (1 + jitter * min(1, max(-1, unit))))
    }
}
