/// A place in a source text: 1-based line, and 1-based column counted in
/// Unicode scalars (so a caret under the quoted line lines up with what an
/// editor shows for ASCII and most other text).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// A TOML value with where it starts in the source, so a configuration
/// error can point at the value that is wrong.
public struct TOMLValue: Sendable {
    public enum Kind: Sendable {
        case string(String)
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        /// An offset date-time when `offsetMinutes` is set, else a local date-time.
        case dateTime(TOMLDate, TOMLTime, offsetMinutes: Int?)
        case date(TOMLDate)
        case time(TOMLTime)
        case array([TOMLValue])
        case table(TOMLTable)
    }

    public var kind: Kind
    public var location: SourceLocation

    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The TOML spec's name for the value's type, for messages ("expected a
    /// string, found an integer").
    public var typeName: String {
        switch kind {
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        case .dateTime(_, _, let offset): offset == nil ? "local date-time" : "offset date-time"
        case .date: "local date"
        case .time: "local time"
        case .array: "array"
        case .table: "table"
        }
    }

    public var string: String? { if case .string(let value) = kind { value } else { nil } }
    public var integer: Int64? { if case .integer(let value) = kind { value } else { nil } }
    public var boolean: Bool? { if case .boolean(let value) = kind { value } else { nil } }
    public var array: [TOMLValue]? { if case .array(let value) = kind { value } else { nil } }
    public var table: TOMLTable? { if case .table(let value) = kind { value } else { nil } }

    /// A float, or an integer read as one (`volume = 1` means 1.0).
    public var number: Double? {
        switch kind {
        case .float(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
}

/// A TOML table: keys in the order they were written, each with its value
/// and where the key was written.
public struct TOMLTable: Sendable {
    public struct Entry: Sendable {
        public let key: String
        public let keyLocation: SourceLocation
        public let value: TOMLValue
    }

    public private(set) var entries: [Entry] = []
    private var index: [String: Int] = [:]

    public init() {}

    public var keys: [String] { entries.map(\.key) }
    public var isEmpty: Bool { entries.isEmpty }

    public subscript(key: String) -> TOMLValue? { entry(key)?.value }

    public func entry(_ key: String) -> Entry? { index[key].map { entries[$0] } }

    /// Adds `key`; the parser has already refused duplicates, so a second
    /// value for a key replaces the first.
    mutating func set(_ key: String, _ value: TOMLValue, keyLocation: SourceLocation) {
        let entry = Entry(key: key, keyLocation: keyLocation, value: value)
        if let existing = index[key] {
            entries[existing] = entry
        } else {
            index[key] = entries.count
            entries.append(entry)
        }
    }
}

/// A calendar date as written (TOML's local date and the date part of
/// date-times), already checked to exist (February 29 only in leap years).
public struct TOMLDate: Sendable, Hashable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }
}

/// A time of day; seconds may be 60 (a leap second, which RFC 3339 allows).
public struct TOMLTime: Sendable, Hashable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// Fraction of the second in nanoseconds; finer digits were truncated,
    /// as the TOML spec asks.
    public let nanosecond: Int

    public var description: String {
        var text = "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if nanosecond > 0 {
            var fraction = pad(nanosecond, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }
}

func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
