import Glibc

/// The host's real clock: CLOCK_MONOTONIC, which never jumps with NTP or
/// `date`, the same clock DRM vblank events and ALSA timestamps use.
///
/// Thread-safe: it holds no state.
public struct MonotonicClock: HostClock {
    public init() {}

    /// The current CLOCK_MONOTONIC time, in nanoseconds.
    public func now() -> HostTime {
        var spec = timespec()
        // CLOCK_MONOTONIC always exists on Linux; the call cannot fail with a valid pointer.
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return HostTime(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    /// Blocks the calling thread until `deadline`. Sleeping to an absolute
    /// time means a signal that interrupts the sleep (EINTR) costs nothing:
    /// the retry aims at the same instant instead of oversleeping.
    public func sleep(until deadline: HostTime) {
        guard deadline.nanoseconds > 0 else { return }
        var spec = deadline.timespec
        // clock_nanosleep returns the error number instead of setting errno.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }

    /// Waits on the signal's condition, which times out on CLOCK_MONOTONIC itself.
    public func wait(for signal: WakeSignal, until deadline: HostTime?) {
        signal.wait(untilMonotonic: deadline)
    }
}
