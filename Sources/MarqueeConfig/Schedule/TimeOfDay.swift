/// A local wall-clock time of day to the minute, `"HH:MM"` from 00:00 to 23:59.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    /// nil outside 00:00...23:59 (24:00 and 12:60 do not exist).
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        (self.hour, self.minute) = (hour, minute)
    }

    /// `HH:MM`, exactly two digits each; nil when malformed or impossible.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { ("0"..."9").contains($0) } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// Seconds after local midnight as a clock that never changes would show it.
    public var secondsIntoDay: Int { hour * 3600 + minute * 60 }

    public var description: String { "\(pad(hour, 2)):\(pad(minute, 2))" }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.secondsIntoDay < b.secondsIntoDay }
}

/// `from` and `until` of a `[[schedule]]` entry: a day window when `until`
/// is after `from`, else a night window that ends on the next day.
public struct DailyTimes: Sendable, Hashable {
    public var from: TimeOfDay
    public var until: TimeOfDay

    public init(from: TimeOfDay, until: TimeOfDay) {
        self.from = from
        self.until = until
    }

    /// `until` <= `from`: the window runs past midnight into the next day
    /// (`from` == `until`: a whole day of 24 local hours).
    public var isNight: Bool { until <= from }
}
