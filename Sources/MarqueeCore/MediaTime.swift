/// A time stamp or duration on a media timeline, modelled on CoreMedia's `CMTime`.
///
/// A numeric time is the exact rational `value / timescale` seconds; the other kinds
/// (invalid, indefinite, ±infinity) carry no value. Arithmetic and comparison are exact
/// across timescales; when a result cannot be held exactly it is rounded and
/// `hasBeenRounded` is set, and when it cannot be held at all it becomes ±infinity.
/// Nothing here traps on overflow.
///
/// Equality and ordering ignore `hasBeenRounded` and compare the rational value, so
/// `1/2 == 2/4`. The order of the kinds is
/// `invalid < -infinity < every numeric time < +infinity < indefinite`,
/// and each kind is equal to itself.
/// (This is Marquee's order. `CMTimeCompare` itself orders
/// `-infinity < numeric < indefinite < +infinity < invalid`.)
public struct MediaTime: Sendable {
    /// What a time denotes: a number of seconds or one of the non-numeric values.
    public enum Kind: Sendable, Hashable {
        case numeric
        /// Unknown or uninitialised; `CMTime`'s all-zero `kCMTimeInvalid`.
        case invalid
        /// Valid but unknown, e.g. the duration of a live stream.
        case indefinite
        case positiveInfinity
        case negativeInfinity
    }

    /// How an inexact quotient is turned into a tick count.
    public enum Rounding: Sendable, Hashable, CaseIterable {
        case towardZero
        case awayFromZero
        /// Toward negative infinity (floor).
        case down
        /// Toward positive infinity (ceiling).
        case up
        /// `CMTime`'s default: halves go away from zero.
        case nearestHalfAwayFromZero
        /// Banker's rounding: halves go to the even neighbour.
        case nearestHalfEven
    }

    /// Ticks; 0 for non-numeric times.
    public let value: Int64
    /// Ticks per second; positive for numeric times, 0 otherwise.
    public let timescale: Int32
    public let kind: Kind
    /// Whether this time was rounded, or derived from a rounded time, at some point
    /// (`kCMTimeFlags_HasBeenRounded`). Always false for non-numeric times.
    public let hasBeenRounded: Bool

    /// `value / timescale` seconds. A timescale of zero or less gives `.invalid`,
    /// as a time with no ticks per second has no meaning.
    public init(value: Int64, timescale: Int32) {
        if timescale > 0 {
            self.init(numeric: value, timescale: timescale, hasBeenRounded: false)
        } else {
            self.init(nonNumeric: .invalid)
        }
    }

    /// Caller guarantees `timescale > 0`.
    init(numeric value: Int64, timescale: Int32, hasBeenRounded: Bool) {
        self.value = value
        self.timescale = timescale
        self.kind = .numeric
        self.hasBeenRounded = hasBeenRounded
    }

    init(nonNumeric kind: Kind) {
        self.value = 0
        self.timescale = 0
        self.kind = kind == .numeric ? .invalid : kind
        self.hasBeenRounded = false
    }

    public static let zero = MediaTime(value: 0, timescale: 1)
    public static let invalid = MediaTime(nonNumeric: .invalid)
    public static let indefinite = MediaTime(nonNumeric: .indefinite)
    public static let positiveInfinity = MediaTime(nonNumeric: .positiveInfinity)
    public static let negativeInfinity = MediaTime(nonNumeric: .negativeInfinity)

    public var isValid: Bool { kind != .invalid }
    public var isNumeric: Bool { kind == .numeric }
    public var isIndefinite: Bool { kind == .indefinite }
    /// True for either infinity.
    public var isInfinite: Bool { kind == .positiveInfinity || kind == .negativeInfinity }
    public var isPositiveInfinity: Bool { kind == .positiveInfinity }
    public var isNegativeInfinity: Bool { kind == .negativeInfinity }
}

// MARK: - Equality, hashing, ordering

extension MediaTime: Comparable, Hashable {
    /// Position of each kind in Marquee's order (see the type's documentation).
    private var kindRank: Int {
        switch kind {
        case .negativeInfinity: 0
        case .numeric: 1
        case .indefinite: 2
        case .positiveInfinity: 3
        case .invalid: 4
        }
    }

    /// -1, 0 or 1, in `CMTimeCompare`'s order: -infinity < numeric < indefinite < +infinity < invalid.
    public static func compare(_ lhs: MediaTime, _ rhs: MediaTime) -> Int {
        if lhs.kind != rhs.kind { return lhs.kindRank < rhs.kindRank ? -1 : 1 }
        guard lhs.isNumeric else { return 0 }
        if lhs.timescale == rhs.timescale {
            return lhs.value < rhs.value ? -1 : (lhs.value == rhs.value ? 0 : 1)
        }
        // a/s < b/t  <=>  a*t < b*s (s, t > 0), in 128 bits so nothing is lost;
        // Doubles would merge neighbours above 2^53 ticks.
        let left = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
        let right = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
        if left.high != right.high { return left.high < right.high ? -1 : 1 }
        if left.low != right.low { return left.low < right.low ? -1 : 1 }
        return 0
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool { compare(lhs, rhs) < 0 }

    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool { compare(lhs, rhs) == 0 }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        guard isNumeric else { return }
        // Hash the reduced fraction so that equal times (1/2, 2/4) hash alike.
        let divisor = Int64(MediaTime.gcd(value.magnitude, UInt64(timescale)))
        hasher.combine(value / divisor)
        hasher.combine(Int64(timescale) / divisor)
    }
}

// MARK: - Description

extension MediaTime: CustomStringConvertible {
    /// `"1001/30000 (0.0334 s)"`, `", rounded"` added inside the parentheses when
    /// `hasBeenRounded`; `"invalid"`, `"indefinite"`, `"+infinity"`, `"-infinity"`.
    public var description: String {
        switch kind {
        case .invalid: return "invalid"
        case .indefinite: return "indefinite"
        case .positiveInfinity: return "+infinity"
        case .negativeInfinity: return "-infinity"
        case .numeric:
            let note = hasBeenRounded ? ", rounded" : ""
            return "\(value)/\(timescale) (\(decimalSeconds) s\(note))"
        }
    }

    /// Seconds to four decimals, halves away from zero, computed from the integers
    /// rather than a Double so huge values still print their exact whole part.
    private var decimalSeconds: String {
        let scale = UInt64(timescale)
        let magnitude = value.magnitude
        var whole = magnitude / scale
        // remainder < 2^31, so these products stay far below 2^64.
        let scaledRemainder = (magnitude % scale) * 10_000
        var fraction = (2 * scaledRemainder + scale) / (2 * scale)
        if fraction == 10_000 {
            whole += 1
            fraction = 0
        }
        let sign = value < 0 && (whole != 0 || fraction != 0) ? "-" : ""
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
