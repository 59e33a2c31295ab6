/// TOML dates and times from their text (RFC 3339 with TOML's additions: a
/// space for the `T`, and local dates and times without an offset).
enum TOMLDateTimeText {
    /// `YYYY-MM-DD`, the only shape a date may be followed by a space and a time.
    static func isFullDate(_ token: [Unicode.Scalar]) -> Bool {
        token.count == 10 && token[4] == "-" && token[7] == "-"
            && [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { token[$0].isASCIIDigit }
    }

    /// Tells a date or time from a number by its first punctuation: `-`
    /// after four digits, or `:` after two.
    static func looksLikeDateOrTime(_ token: [Unicode.Scalar]) -> Bool {
        let digits = token.prefix { $0.isASCIIDigit }.count
        guard digits < token.count else { return false }
        let next = token[digits]
        return (next == "-" && digits >= 3) || (next == ":" && digits >= 1)
    }

    static func parse(_ token: [Unicode.Scalar]) throws(TOMLTokenError) -> TOMLValue.Kind {
        var reader = Reader(scalars: token[...])
        if token.count > 2, token[2] == ":" {
            let time = try reader.time()
            try reader.end()
            return .time(time)
        }
        let date = try reader.date()
        if reader.isAtEnd { return .date(date) }
        guard let separator = reader.next(), separator == "T" || separator == "t" else {
            throw TOMLTokenError(reason: "expected 'T' or a space between the date and the time")
        }
        let time = try reader.time()
        if reader.isAtEnd { return .dateTime(date, time, offsetMinutes: nil) }
        let offset = try reader.offset()
        try reader.end()
        return .dateTime(date, time, offsetMinutes: offset)
    }

    private struct Reader {
        var scalars: ArraySlice<Unicode.Scalar>
        var isAtEnd: Bool { scalars.isEmpty }

        mutating func next() -> Unicode.Scalar? { scalars.popFirst() }

        mutating func end() throws(TOMLTokenError) {
            guard isAtEnd else { throw TOMLTokenError(reason: "unexpected '\(scalars.first!)'") }
        }

        mutating func expect(_ scalar: Unicode.Scalar) throws(TOMLTokenError) {
            guard next() == scalar else { throw TOMLTokenError(reason: "expected '\(scalar)'") }
        }

        /// Exactly `count` digits, within `range`.
        mutating func number(_ count: Int, _ range: ClosedRange<Int>, _ what: String) throws(TOMLTokenError) -> Int {
            var value = 0
            for _ in 0..<count {
                guard let scalar = next(), scalar.isASCIIDigit else {
                    throw TOMLTokenError(reason: "\(what) must have \(count) digits")
                }
                value = value * 10 + Int(scalar.value - 48)
            }
            guard range.contains(value) else {
                throw TOMLTokenError(reason: "\(what) \(value) is out of range \(range.lowerBound)-\(range.upperBound)")
            }
            return value
        }

        mutating func date() throws(TOMLTokenError) -> TOMLDate {
            let year = try number(4, 0...9999, "year")
            try expect("-")
            let month = try number(2, 1...12, "month")
            try expect("-")
            let day = try number(2, 1...daysIn(month: month, year: year), "day")
            return TOMLDate(year: year, month: month, day: day)
        }

        mutating func time() throws(TOMLTokenError) -> TOMLTime {
            let hour = try number(2, 0...23, "hour")
            try expect(":")
            let minute = try number(2, 0...59, "minute")
            try expect(":")
            let second = try number(2, 0...60, "second")
            var nanosecond = 0
            if scalars.first == "." {
                _ = next()
                let digits = scalars.prefix { $0.isASCIIDigit }
                guard !digits.isEmpty else { throw TOMLTokenError(reason: "digits expected after '.'") }
                scalars.removeFirst(digits.count)
                // Nanoseconds; finer digits are truncated, as the spec asks.
                for (index, scalar) in digits.prefix(9).enumerated() {
                    nanosecond += Int(scalar.value - 48) * Self.powersOfTen[8 - index]
                }
            }
            return TOMLTime(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
        }

        /// `Z`, or `+HH:MM` / `-HH:MM`, in minutes east of UTC.
        mutating func offset() throws(TOMLTokenError) -> Int {
            switch next() {
            case "Z", "z": return 0
            case let sign? where sign == "+" || sign == "-":
                let hours = try number(2, 0...23, "offset hour")
                try expect(":")
                let minutes = try number(2, 0...59, "offset minute")
                return (sign == "-" ? -1 : 1) * (hours * 60 + minutes)
            default:
                throw TOMLTokenError(reason: "expected 'Z' or an offset like +01:00 after the time")
            }
        }

        static let powersOfTen = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

        func daysIn(month: Int, year: Int) -> Int {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }
    }
}
