// Conversions between MediaTime and seconds, other timescales, and libav time bases.

extension MediaTime {
    /// `seconds` placed on `preferredTimescale`, rounded half away from zero from the
    /// Double's exact binary value. As `CMTimeMakeWithSeconds`: NaN or a timescale
    /// of zero or less gives invalid, ±infinity the matching infinity; if the value
    /// overflows, the timescale is halved until it fits (±infinity past timescale 1);
    /// `hasBeenRounded` is set when the result does not convert back to exactly
    /// `seconds`, so 0.1 s at timescale 1000 (100/1000) is not marked rounded.
    public init(seconds: Double, preferredTimescale: Int32) {
        if seconds.isNaN || preferredTimescale <= 0 {
            self = .invalid
            return
        }
        if seconds.isInfinite {
            self = seconds < 0 ? .negativeInfinity : .positiveInfinity
            return
        }
        if seconds == 0 {
            self.init(numeric: 0, timescale: preferredTimescale, hasBeenRounded: false)
            return
        }
        let (mantissa, exponent) = MediaTime.binaryParts(of: seconds.magnitude)
        let numerator: Wide, denominator: Wide
        if exponent >= 0 {
            // Above 2^181 s nothing fits in Int64 ticks, even at timescale 1.
            guard exponent <= 128, let shifted = Wide(mantissa).shiftedLeft(by: exponent) else {
                self = seconds < 0 ? .negativeInfinity : .positiveInfinity
                return
            }
            (numerator, denominator) = (shifted, Wide(1))
        } else {
            // Below 2^-147 s the value rounds to zero ticks on any Int32 timescale.
            guard exponent >= -200, let shifted = Wide(1).shiftedLeft(by: -exponent) else {
                self.init(numeric: 0, timescale: preferredTimescale, hasBeenRounded: true)
                return
            }
            (numerator, denominator) = (Wide(mantissa), shifted)
        }
        let time = MediaTime.make(negative: seconds < 0, numerator, over: denominator,
                                  timescale: preferredTimescale, rounded: false)
        guard time.isNumeric else {
            self = time
            return
        }
        self.init(numeric: time.value, timescale: time.timescale, hasBeenRounded: time.seconds != seconds)
    }

    /// The time in seconds: NaN for invalid and indefinite, ±infinity for the
    /// infinities. Lossy above 2^53 ticks; compare MediaTimes, not their seconds.
    public var seconds: Double {
        switch kind {
        case .numeric: Double(value) / Double(timescale)
        case .positiveInfinity: .infinity
        case .negativeInfinity: -.infinity
        case .invalid, .indefinite: .nan
        }
    }

    /// The same time on `newTimescale`, setting `hasBeenRounded` when inexact.
    /// Non-numeric times are returned unchanged; a timescale of zero or less gives
    /// invalid; a value that does not fit in Int64 ticks becomes ±infinity (the
    /// timescale was asked for, so it is not halved).
    public func converted(toTimescale newTimescale: Int32,
                          rounding: Rounding = .nearestHalfAwayFromZero) -> MediaTime {
        guard isNumeric else { return self }
        guard newTimescale > 0 else { return .invalid }
        if newTimescale == timescale { return self }
        return MediaTime.make(negative: value < 0, Wide(value.magnitude), over: Wide(UInt64(timescale)),
                              timescale: newTimescale, rounding: rounding, halving: false,
                              rounded: hasBeenRounded)
    }

    /// A libav timestamp: `value` units of `numerator / denominator` seconds (an
    /// `AVRational` time base), so pts 7 in time base 1001/30000 is 7007/30000 s.
    /// The time base is reduced first, and the result is exact, on that reduced
    /// denominator, whenever `value * numerator` fits in Int64. Otherwise it is
    /// rounded half away from zero with `hasBeenRounded` set, on the denominator halved
    /// until the value fits (±infinity only past timescale 1). A zero denominator
    /// gives invalid.
    public init(value: Int64, timeBase numerator: Int32, _ denominator: Int32) {
        guard denominator != 0 else {
            self = .invalid
            return
        }
        // In Int64 so negating Int32.min cannot overflow.
        var num = Int64(numerator), den = Int64(denominator)
        if den < 0 { (num, den) = (-num, -den) }
        let g = Int64(MediaTime.gcd(num.magnitude, UInt64(den)))
        num /= g
        den /= g
        let (ticks, overflow) = value.multipliedReportingOverflow(by: num)
        if !overflow && den <= Int64(Int32.max) {
            self.init(numeric: ticks, timescale: Int32(den), hasBeenRounded: false)
            return
        }
        self = MediaTime.make(negative: (value < 0) != (num < 0),
                              Wide.product(value.magnitude, num.magnitude), over: Wide(UInt64(den)),
                              timescale: Int32(clamping: den), rounded: false)
    }

    /// This time as a count of `numerator / denominator`-second units (a libav pts),
    /// rounded as asked. Nil for non-numeric times, for a zero numerator or
    /// denominator, and when the count does not fit in Int64.
    public func value(inTimeBase numerator: Int32, _ denominator: Int32,
                      rounding: MediaTime.Rounding) -> Int64? {
        guard isNumeric, numerator != 0, denominator != 0 else { return nil }
        let negative = ((value < 0) != (numerator < 0)) != (denominator < 0)
        // units = value/timescale * denominator/numerator
        let n = Wide.product(value.magnitude, UInt64(denominator.magnitude))
        let d = Wide(UInt64(timescale) * UInt64(numerator.magnitude)) // < 2^62
        guard let units = MediaTime.roundedQuotient(n, d, negative: negative, rounding) else { return nil }
        return MediaTime.signed(units.magnitude, negative: negative)
    }
}
