import Glibc

/// RFC 3339 text for a `WallTime`, as logs and the HTTP API carry it:
/// local time with the zone's offset and milliseconds,
/// `2026-12-04T18:03:07.412+01:00`. Pure arithmetic on the epoch seconds
/// (gmtime_r of the shifted time, timegm to read back): no zone table,
/// no Foundation formatter.
extension WallTime {
    /// This moment in its own offset, to the millisecond (rounded down, so
    /// a later moment never prints earlier); `+00:00` for UTC.
    public var rfc3339: String { text(milliseconds: true) }

    /// The same to the second (rounded down), as a schedule's boundaries
    /// fall: `2026-03-29T03:00:00+02:00`.
    public var rfc3339Seconds: String { text(milliseconds: false) }

    private func text(milliseconds showsMilliseconds: Bool) -> String {
        let milliseconds = Int64((secondsSinceEpoch * 1000).rounded(.down))
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        // A negative epoch time has a negative remainder: borrow a second.
        let wholeSeconds = fraction < 0 ? seconds - 1 : seconds
        let millisecond = fraction < 0 ? fraction + 1000 : fraction
        var local = time_t(wholeSeconds) + time_t(utcOffset)
        var fields = tm()
        // gmtime_r fails only past year 2^31; the fields stay zero then.
        _ = gmtime_r(&local, &fields)
        let offsetMinutes = abs(utcOffset) / 60
        return "\(Self.digits(Int(fields.tm_year) + 1900, 4))-\(Self.digits(Int(fields.tm_mon) + 1, 2))-\(Self.digits(Int(fields.tm_mday), 2))"
            + "T\(Self.digits(Int(fields.tm_hour), 2)):\(Self.digits(Int(fields.tm_min), 2)):\(Self.digits(Int(fields.tm_sec), 2))"
            + (showsMilliseconds ? ".\(Self.digits(Int(millisecond), 3))" : "") + "\(utcOffset < 0 ? "-" : "+")\(Self.digits(offsetMinutes / 60, 2)):\(Self.digits(offsetMinutes % 60, 2))"
    }

    /// Reads RFC 3339 date-time text: `YYYY-MM-DDTHH:MM:SS`, an optional
    /// fraction of any length, and `Z` or `+HH:MM`/`-HH:MM` (`T` and `Z`
    /// in either case). Nil for anything else, or a date or time that does
    /// not exist (February 30, hour 24); a leap second (`:60`) is read as
    /// the next second.
    public init?(rfc3339 text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index ..< index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2), expect("Tt"),
              let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2) else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else {
            guard index < bytes.count else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard expect("+-"), let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(min(second, 59))
        let local = timegm(&fields)
        // timegm normalises February 30 to March 2: such a date does not exist.
        guard fields.tm_mday == Int32(day), fields.tm_mon == Int32(month - 1) else { return nil }
        self.init(secondsSinceEpoch: Double(local - time_t(offset)) + Double(second == 60 ? 1 : 0) + fraction, utcOffset: offset)
    }

    /// `value` in decimal, with leading zeros to `width` digits.
    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
