import Glibc

/// What a pipeline stage's thread sleeps on between steps: a condition that
/// another thread raises (a queue got an entry or room, a command came) and
/// that times out at a deadline on CLOCK_MONOTONIC, the clock of `HostTime`.
/// A raise that comes while nobody waits is kept, so a wake-up between a
/// stage's step and its wait is never lost.
///
/// `@unchecked Sendable`: `raised` is only touched with `mutex` locked.
public final class WakeSignal: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var raised = false

    public init() {
        // Default attributes cannot fail to apply; the monotonic clock always exists on Linux.
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Wakes the waiter, or the next wait if nobody waits now.
    public func raise() {
        pthread_mutex_lock(mutex)
        raised = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Takes a pending raise without waiting; true if there was one.
    public func take() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let was = raised
        raised = false
        return was
    }

    /// Blocks until raised or, with a deadline, until CLOCK_MONOTONIC reaches
    /// it. A raise is consumed by the wait it ends.
    public func wait(untilMonotonic deadline: HostTime?) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var spec = deadline?.timespec
        while !raised {
            if spec == nil {
                pthread_cond_wait(condition, mutex)
            } else if pthread_cond_timedwait(condition, mutex, &spec!) == ETIMEDOUT {
                break
            }
        }
        raised = false
    }
}
