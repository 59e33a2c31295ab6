import MarqueeCore

/// Why a wait on real time ended.
public enum WallClockWake: Sendable, Equatable {
    /// The deadline passed.
    case reached
    /// The clock was set (NTP's first step at boot, `date -s`, a step back
    /// an hour): whatever was worked out from the old reading is stale.
    case stepped
    /// `cancel()` was called.
    case cancelled
}

/// Waiting on real time, which `WallClock` readings alone cannot do: real
/// time jumps, and a deadline computed before a jump would fire an hour late
/// or never. A wait ends at the deadline or at once when the clock is set.
///
/// Thread-safety: one thread waits at a time; `cancel()` may come from any
/// thread, and ends the current wait and every later one.
public protocol WallClockAlarm: AnyObject, Sendable {
    /// Blocks until real time reaches `deadline` (nil: no deadline), the
    /// clock is set, or the alarm is cancelled.
    /// - Throws: `AlarmError` naming the call when the wait cannot be set up.
    func wait(until deadline: WallTime?) throws(AlarmError) -> WallClockWake
    func cancel()
}

/// Whether real time can be trusted yet: a board without a real-time clock
/// boots in 1970 (or at fake-hwclock's last save) until NTP sets it.
public protocol ClockSynchronisation: Sendable {
    var isSynchronised: Bool { get }
}
