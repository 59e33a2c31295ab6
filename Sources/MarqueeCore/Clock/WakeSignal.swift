/// What a pipeline stage's thread sleeps on between steps: a condition that
/// another thread raises (a queue got an entry or room, a command came) and
/// that times out at a deadline on CLOCK_MONOTONIC, the clock of `HostTime`.
/// A raise that comes while nobody waits is kept, so a wake-up between a
/// stage's step and its wait is never lost.
///
/// `@unchecked Sendable`: `raised` is only touched with `condition` locked.
public final class WakeSignal: @unchecked Sendable {
    private let condition = Condition()
    private var raised = false

    public init() {}

    /// Wakes the waiter, or the next wait if nobody waits now.
    public func raise() {
        condition.withLock {
            raised = true
            condition.signal()
        }
    }

    /// Takes a pending raise without waiting; true if there was one.
    public func take() -> Bool {
        condition.withLock {
            let was = raised
            raised = false
            return was
        }
    }

    /// Blocks until raised or, with a deadline, until CLOCK_MONOTONIC reaches
    /// it. A raise is consumed by the wait it ends.
    public func wait(untilMonotonic deadline: HostTime?) {
        condition.withLock {
            while !raised {
                if let deadline {
                    guard condition.wait(untilMonotonic: deadline) else { break }
                } else {
                    condition.wait()
                }
            }
            raised = false
        }
    }
}
