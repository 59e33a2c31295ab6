import Glibc

/// A mutex and a condition variable on CLOCK_MONOTONIC (the clock of
/// `HostTime`), used as Foundation's NSCondition is: lock, test the state,
/// wait, unlock. The player links FoundationEssentials only, which has no
/// locks or threads (see docs/architecture.md, "Layers").
///
/// `@unchecked Sendable`: pthread objects are made for sharing between threads.
public final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

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

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes one waiter; call with the lock held.
    public func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiter; call with the lock held.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits for a signal; call with the lock held, and test the state again
    /// after (a wait can end without one).
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal or until CLOCK_MONOTONIC reaches `deadline`; false
    /// when the deadline passed. Call with the lock held.
    public func wait(untilMonotonic deadline: HostTime) -> Bool {
        var spec = deadline.timespec
        return pthread_cond_timedwait(condition, mutex, &spec) != ETIMEDOUT
    }
}
