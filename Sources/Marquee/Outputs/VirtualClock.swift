import Synchronization

/// A clock for untimed runs (benchmarks, conversions, tests): time moves only
/// when someone sleeps, and a sleep jumps straight to its deadline, so a
/// pipeline runs as fast as it can decode while still seeing consistent times.
///
/// Thread-safe: every thread shares one virtual "now", which only moves forward.
public final class VirtualClock: HostClock {
    private let time: Mutex<HostTime>

    /// - Parameter start: the virtual time before anyone sleeps.
    public init(start: HostTime = HostTime(nanoseconds: 0)) {
        time = Mutex(start)
    }

    /// The virtual time: the latest deadline any thread has slept until.
    public func now() -> HostTime {
        time.withLock { $0 }
    }

    /// Never blocks: moves virtual time to `deadline` if it is later than now.
    public func sleep(until deadline: HostTime) {
        time.withLock { $0 = max($0, deadline) }
    }

    /// Time does not move for a wait: in an untimed run stages wait for each
    /// other, never for time (outputs move it as they consume). A deadline
    /// already reached returns at once; a later one is never reached, so
    /// only the signal ends the wait.
    public func wait(for signal: WakeSignal, until deadline: HostTime?) {
        if signal.take() { return }
        if let deadline, deadline <= now() { return }
        signal.wait(untilMonotonic: nil)
    }
}
