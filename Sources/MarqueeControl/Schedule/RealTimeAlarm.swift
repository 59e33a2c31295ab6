import CLinuxTime
import Glibc
import MarqueeCore

/// `WallClockAlarm` on the kernel's CLOCK_REALTIME: a timerfd armed at the
/// deadline with TFD_TIMER_CANCEL_ON_SET, so a wait also ends the moment the
/// clock is set, with no polling; an eventfd ends it for `cancel()`. Owns
/// both descriptors and closes them.
public final class RealTimeAlarm: WallClockAlarm {
    private let timer: Int32
    private let stop: StopEvent
    /// No deadline is still an armed timer (cancel-on-set needs one): this far ahead.
    static let farAhead: Int = 10 * 365 * 86_400

    /// - Throws: `AlarmError` naming `timerfd_create` or `eventfd`.
    public init() throws(AlarmError) {
        let timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard timer >= 0 else { throw AlarmError("timerfd_create", errno: errno) }
        guard let stop = StopEvent.make() else {
            let error = errno
            close(timer)
            throw AlarmError("eventfd", errno: error)
        }
        self.timer = timer
        self.stop = stop
    }

    deinit { close(timer) }

    public func wait(until deadline: WallTime?) throws(AlarmError) -> WallClockWake {
        try arm(deadline)
        while true {
            var descriptors = [pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)]
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                throw AlarmError("poll", errno: errno)
            }
            if descriptors[1].revents != 0 { return .cancelled }
            var expirations: UInt64 = 0
            if read(timer, &expirations, MemoryLayout<UInt64>.size) >= 0 { return .reached }
            switch errno {
            case ECANCELED: return .stepped
            case EAGAIN, EINTR: continue
            default: throw AlarmError("read (timerfd)", errno: errno)
            }
        }
    }

    public func cancel() { stop.raise() }

    private func arm(_ deadline: WallTime?) throws(AlarmError) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let seconds = deadline?.secondsSinceEpoch ?? Double(now.tv_sec + Self.farAhead)
        // The kernel fires an absolute time already past at once; 0 would disarm instead.
        let whole = max(Int(seconds.rounded(.down)), 1)
        let nanoseconds = max(0, min(999_999_999, Int((seconds - Double(whole)) * 1e9)))
        var setting = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: whole, tv_nsec: nanoseconds))
        guard timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &setting, nil) == 0 else {
            throw AlarmError("timerfd_settime", errno: errno)
        }
    }
}

/// A real-time alarm call that failed, with errno's text.
public struct AlarmError: Error, Sendable, CustomStringConvertible {
    public let call: String
    public let errno: Int32

    init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
