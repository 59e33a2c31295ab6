import Glibc

/// A moment of real (civil) time as the device's time zone sees it: seconds
/// since the Unix epoch, and the zone's offset from UTC at that moment (which
/// changes with daylight saving), so a local time of day follows.
public struct WallTime: Sendable, Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z, UTC.
    public var secondsSinceEpoch: Double
    /// The local zone's offset from UTC at this moment, in seconds (east positive).
    public var utcOffset: Int

    public init(secondsSinceEpoch: Double, utcOffset: Int) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.utcOffset = utcOffset
    }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    /// Seconds since local midnight (0 ..< 86400, or one hour more or less on a daylight-saving day).
    public var secondsIntoLocalDay: Double {
        let local = secondsSinceEpoch + Double(utcOffset)
        return local - (local / 86_400).rounded(.down) * 86_400
    }
}

/// Where real time comes from, injected like `HostClock` so what is
/// scheduled by the time of day can be tested on a manual clock. Real time
/// may jump (NTP, a user setting the date); waits never use it: they are
/// deadlines on the `HostClock`, recomputed from a new reading of this one.
public protocol WallClock: Sendable {
    func now() -> WallTime
}

/// The system's real-time clock (CLOCK_REALTIME) in the process's local
/// time zone (TZ, else /etc/localtime).
public struct SystemWallClock: WallClock {
    public init() {}

    public func now() -> WallTime {
        var spec = timespec()
        // CLOCK_REALTIME always exists; the call cannot fail with a valid pointer.
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var local = tm()
        // localtime_r reads the zone (tzset) and fills tm_gmtoff; it fails only for an unrepresentable year.
        let offset = localtime_r(&seconds, &local) == nil ? 0 : local.tm_gmtoff
        return WallTime(secondsSinceEpoch: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9, utcOffset: offset)
    }
}
