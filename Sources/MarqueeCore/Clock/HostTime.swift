import Glibc
import Synchronization

/// A point on the host's monotonic clock (CLOCK_MONOTONIC), in nanoseconds.
/// Vblank timestamps, audio-device timestamps and sleeps all use it, so they
/// can be compared without conversion.
public struct HostTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static func < (lhs: HostTime, rhs: HostTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func + (lhs: HostTime, rhs: Duration) -> HostTime {
        HostTime(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }

    public static func - (lhs: HostTime, rhs: HostTime) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The same instant as a `timespec` on CLOCK_MONOTONIC, for the C calls
    /// that wait until an absolute time.
    public var timespec: Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    public var description: String { "\(seconds) s" }
}

extension Duration {
    /// Whole nanoseconds, saturating at Int64's range.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled + attoseconds / 1_000_000_000
    }

    public var secondsDouble: Double { Double(nanoseconds) / 1e9 }
}

/// Where "now" comes from and how a thread waits for a later time. The real
/// one reads CLOCK_MONOTONIC; tests drive a manual one.
public protocol HostClock: Sendable {
    func now() -> HostTime
    /// Blocks the calling thread until `deadline` (returns at once if it has passed).
    func sleep(until deadline: HostTime)
    /// Blocks the calling thread until `signal` is raised or, with a
    /// deadline, until this clock reaches it: how a pipeline stage's thread
    /// waits between steps. A stage steps again after any return, so an
    /// early one costs a step, nothing more.
    func wait(for signal: WakeSignal, until deadline: HostTime?)
}
