import MarqueeCore

extension WallTime {
    /// An RFC 3339 date-time with its offset ("2026-03-29T03:00:00+02:00",
    /// "2026-03-29T01:00:00Z"; a space for the T, fractions of a second,
    /// TOML's spellings, are taken too); nil for anything else, a local time
    /// without an offset included. `utcOffset` is the offset written.
    public init?(rfc3339 text: String) {
        let scalars = Array(text.unicodeScalars)
        guard let kind = try? TOMLDateTimeText.parse(scalars),
              case .dateTime(let date, let time, let offsetMinutes?) = kind,
              let day = CalendarDate(year: date.year, month: date.month, day: date.day) else { return nil }
        let local = day.dayNumber * 86_400 + time.hour * 3600 + time.minute * 60 + time.second
        self.init(secondsSinceEpoch: Double(local - offsetMinutes * 60) + Double(time.nanosecond) / 1e9,
                  utcOffset: offsetMinutes * 60)
    }

    /// RFC 3339 in local time with the UTC offset, to the second (rounded
    /// down): "2026-03-29T03:00:00+02:00". An offset with seconds (local
    /// mean time before 1900) loses them, as RFC 3339 has none.
    public var rfc3339: String {
        let local = Int(secondsSinceEpoch.rounded(.down)) + utcOffset
        let day = CalendarDate(dayNumber: local.floorDivided(by: 86_400))
        let second = local.floorModulo(86_400)
        let offsetMinutes = abs(utcOffset) / 60
        return "\(day)T\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2))"
            + "\(utcOffset < 0 ? "-" : "+")\(pad(offsetMinutes / 60, 2)):\(pad(offsetMinutes % 60, 2))"
    }
}
