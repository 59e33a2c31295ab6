import MarqueeControl
import MarqueeCore

/// Where the schedule reads real time and waits on it, and whether it may
/// trust it: the system's clock, alarm and NTP status, or (the test hook
/// `MARQUEE_TEST_WALL_CLOCK_SHIFT`) the same clock shifted by some seconds.
public struct ScheduleClock: Sendable {
    let clock: any WallClock
    let alarm: @Sendable () throws(AlarmError) -> any WallClockAlarm
    let synchronisation: any ClockSynchronisation

    /// - Parameter trusted: `[schedule_options] trust_clock`: synchronised or not, the clock is right.
    public static func system(trusted: Bool) -> ScheduleClock {
        if let shifted = TestHooks.shiftedWallClock() { return shifted }
        return ScheduleClock(clock: SystemWallClock(), alarm: { () throws(AlarmError) in try RealTimeAlarm() },
                             synchronisation: trusted ? Trusted() : SystemClockSynchronisation())
    }

    struct Trusted: ClockSynchronisation {
        var isSynchronised: Bool { true }
    }
}

/// The system's real time moved by a fixed number of seconds, so a test can
/// start a player just before a schedule's boundary: it reads the shifted
/// time, and waits on the system's alarm for the unshifted deadline, so
/// clock steps still end its waits.
struct ShiftedWallClock: WallClock {
    let seconds: Double

    func now() -> WallTime {
        let system = SystemWallClock().now()
        return WallTime(secondsSinceEpoch: system.secondsSinceEpoch + seconds, utcOffset: system.utcOffset)
    }

    final class Alarm: WallClockAlarm {
        let system: RealTimeAlarm
        let seconds: Double

        init(seconds: Double) throws(AlarmError) {
            system = try RealTimeAlarm()
            self.seconds = seconds
        }

        func wait(until deadline: WallTime?) throws(AlarmError) -> WallClockWake {
            try system.wait(until: deadline.map { WallTime(secondsSinceEpoch: $0.secondsSinceEpoch - seconds, utcOffset: $0.utcOffset) })
        }

        func cancel() { system.cancel() }
    }
}
