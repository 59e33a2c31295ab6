/// A day of the proleptic Gregorian calendar, with no time zone: the local
/// date a `[[schedule]] dates` entry names.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// nil unless the date exists (2026-02-30 does not; February 29 only in leap years).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day) else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// `YYYY-MM-DD`, exactly (four-digit year, two-digit month and day); nil when malformed or impossible.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `number` days after 1970-01-01 (before it when negative).
    /// Howard Hinnant's civil_from_days: eras of 400 years, March-based years.
    public init(dayNumber number: Int) {
        let shifted = number + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (days_from_civil, the inverse of `init(dayNumber:)`).
    public var dayNumber: Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear.floorDivided(by: 400)
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// `"YYYY-MM-DD"` (one day) or `"YYYY-MM-DD..YYYY-MM-DD"` (both ends included).
public struct DateRange: Sendable, Hashable, CustomStringConvertible {
    public let first: CalendarDate
    public let last: CalendarDate

    /// nil when `last` is before `first`.
    public init?(first: CalendarDate, last: CalendarDate) {
        guard first <= last else { return nil }
        (self.first, self.last) = (first, last)
    }

    public init(_ day: CalendarDate) {
        (first, last) = (day, day)
    }

    public func contains(dayNumber: Int) -> Bool {
        (first.dayNumber...last.dayNumber).contains(dayNumber)
    }

    /// Whether every day of `other` is in this range.
    public func contains(_ other: DateRange) -> Bool { first <= other.first && other.last <= last }

    public var description: String { first == last ? "\(first)" : "\(first)..\(last)" }
}
