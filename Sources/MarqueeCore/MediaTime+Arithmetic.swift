// Arithmetic on MediaTime. Results are exact whenever the exact result fits in
// Int64 ticks of an Int32 timescale; otherwise they follow CMTime's rules: default
// rounding onto a fallback timescale, that timescale halved while the value
// overflows, and ±infinity only if it still overflows at timescale 1.

extension MediaTime {
    /// Sum. Exact on the LCM of the two timescales when it fits in Int32 and the
    /// ticks fit in Int64; if the LCM is too large, rounded onto the larger of the two
    /// timescales; if the value overflows, the timescale is halved until it fits, and
    /// past timescale 1 the result is ±infinity. `hasBeenRounded` is set if any
    /// rounding happened or either operand had it.
    ///
    /// Non-numeric operands, in order of precedence:
    /// - either operand invalid: invalid;
    /// - both infinite: `+inf + +inf = +inf`, `-inf + -inf = -inf`, opposite signs: invalid;
    /// - one infinite, the other numeric or indefinite: that infinity (CMTimeAdd);
    /// - either indefinite: indefinite.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        combine(lhs, rhs, subtracting: false)
    }

    /// Difference, with the rules of `+` applied to `lhs + (-rhs)`: so
    /// `+inf - +inf` and `-inf - -inf` are invalid, `+inf - -inf` is `+inf`.
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        combine(lhs, rhs, subtracting: true)
    }

    /// Negation: swaps the infinities, keeps invalid and indefinite. Negating
    /// `Int64.min` ticks halves the timescale rather than trapping.
    public static prefix func - (time: MediaTime) -> MediaTime {
        switch time.kind {
        case .invalid, .indefinite: return time
        case .positiveInfinity: return .negativeInfinity
        case .negativeInfinity: return .positiveInfinity
        case .numeric:
            let (negated, overflow) = Int64(0).subtractingReportingOverflow(time.value)
            if !overflow {
                return MediaTime(numeric: negated, timescale: time.timescale, hasBeenRounded: time.hasBeenRounded)
            }
            return make(negative: false, Wide(time.value.magnitude), over: Wide(UInt64(time.timescale)),
                        timescale: time.timescale, rounded: time.hasBeenRounded)
        }
    }

    public static func += (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs + rhs }
    public static func -= (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs - rhs }

    /// Product keeping the timescale; on overflow the timescale is halved until the
    /// value fits, then ±infinity. Invalid stays invalid, indefinite stays indefinite;
    /// an infinity takes the product's sign, and `infinity * 0` is invalid.
    public func multiplied(by multiplier: Int64) -> MediaTime {
        switch kind {
        case .invalid, .indefinite: return self
        case .positiveInfinity, .negativeInfinity:
            return MediaTime.infinity(times: self, signum: multiplier.signum())
        case .numeric:
            let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
            if !overflow {
                return MediaTime(numeric: product, timescale: timescale, hasBeenRounded: hasBeenRounded)
            }
            return MediaTime.make(negative: (value < 0) != (multiplier < 0),
                                  Wide.product(value.magnitude, multiplier.magnitude),
                                  over: Wide(UInt64(timescale)), timescale: timescale, rounded: hasBeenRounded)
        }
    }

    public static func * (lhs: MediaTime, rhs: Int64) -> MediaTime { lhs.multiplied(by: rhs) }
    public static func * (lhs: Int64, rhs: MediaTime) -> MediaTime { rhs.multiplied(by: lhs) }
    public static func *= (lhs: inout MediaTime, rhs: Int64) { lhs = lhs.multiplied(by: rhs) }

    /// `self * numerator / denominator`, exact when possible: on this time's own
    /// timescale if the result lands on it, else on the smallest timescale that holds
    /// the exact result (a multiple of this one when that still fits in Int32). If no
    /// Int32 timescale holds it, the result is rounded onto this time's timescale,
    /// halving on overflow as `multiplied(by:)` does. A zero denominator gives invalid;
    /// the non-numeric rules are those of `multiplied(by:)`.
    public func multiplied(by numerator: Int64, dividedBy denominator: Int64) -> MediaTime {
        guard denominator != 0 else { return .invalid }
        switch kind {
        case .invalid, .indefinite: return self
        case .positiveInfinity, .negativeInfinity:
            return MediaTime.infinity(times: self, signum: numerator.signum() * denominator.signum())
        case .numeric:
            return scaled(by: numerator.magnitude, over: denominator.magnitude,
                          negativeRatio: (numerator < 0) != (denominator < 0), fallbackTimescale: timescale)
        }
    }

    /// Product with a playback rate. The Double is taken at its exact binary value,
    /// so rates such as 0.5, 1.5 or 2 give exact results (on a finer timescale if
    /// needed). Other rates are rounded, as `CMTimeMultiplyByFloat64` does, onto this
    /// timescale doubled until it is at least 65536, halving on overflow.
    /// A NaN rate gives invalid; an infinite rate gives a signed infinity, or invalid
    /// for a zero time; otherwise the non-numeric rules of `multiplied(by:)` apply.
    public func multiplied(byRate rate: Double) -> MediaTime {
        if rate.isNaN || kind == .invalid { return .invalid }
        if kind == .indefinite { return self }
        let rateSignum: Int64 = rate > 0 ? 1 : (rate < 0 ? -1 : 0)
        if isInfinite { return MediaTime.infinity(times: self, signum: rateSignum) }
        if rate.isInfinite {
            guard value != 0 else { return .invalid }
            return (value < 0) != (rate < 0) ? .negativeInfinity : .positiveInfinity
        }
        if rate == 0 || value == 0 {
            return MediaTime(numeric: 0, timescale: timescale, hasBeenRounded: hasBeenRounded)
        }

        var fallback = timescale
        while fallback < 65_536 { fallback *= 2 }
        let negative = (value < 0) != (rate < 0)
        // |rate| = mantissa * 2^exponent exactly.
        let (mantissa, exponent) = MediaTime.binaryParts(of: rate.magnitude)

        if exponent >= 0 {
            if exponent <= mantissa.leadingZeroBitCount - 1 {
                return scaled(by: mantissa << exponent, over: 1, negativeRatio: rate < 0, fallbackTimescale: fallback)
            }
            // A rate of 2^63 or more; the product can still fit after halving.
            guard exponent <= 128, let n = Wide.product(value.magnitude, mantissa).shiftedLeft(by: exponent) else {
                return negative ? .negativeInfinity : .positiveInfinity
            }
            return MediaTime.make(negative: negative, n, over: Wide(UInt64(timescale)),
                                  timescale: fallback, rounded: hasBeenRounded)
        }
        // Cancel powers of two against the value first, so 2^40 s * 2^-70 stays exact.
        let cancelled = min(value.trailingZeroBitCount, -exponent)
        let reduced = value >> Int64(cancelled)
        let shift = -exponent - cancelled
        if shift <= 63 {
            return MediaTime(numeric: reduced, timescale: timescale, hasBeenRounded: hasBeenRounded)
                .scaled(by: mantissa, over: 1 << UInt64(shift), negativeRatio: rate < 0, fallbackTimescale: fallback)
        }
        // A 2^-64 or finer factor has no exact Int32 timescale; round directly, and
        // past 2^-192 the product (under 2^-76 s) is simply zero.
        guard shift <= 192, let d = Wide(UInt64(timescale)).shiftedLeft(by: shift) else {
            return MediaTime(numeric: 0, timescale: fallback, hasBeenRounded: true)
        }
        return MediaTime.make(negative: negative, Wide.product(reduced.magnitude, mantissa), over: d,
                              timescale: fallback, rounded: hasBeenRounded)
    }
}

// MARK: - Shared machinery

extension MediaTime {
    static func combine(_ lhs: MediaTime, _ rhs: MediaTime, subtracting: Bool) -> MediaTime {
        if !lhs.isValid || !rhs.isValid { return .invalid }
        let right = subtracting ? rhs.kindNegated : rhs.kind
        switch (lhs.kind, right) {
        case (.positiveInfinity, .positiveInfinity): return .positiveInfinity
        case (.negativeInfinity, .negativeInfinity): return .negativeInfinity
        case (.positiveInfinity, .negativeInfinity), (.negativeInfinity, .positiveInfinity): return .invalid
        case (.positiveInfinity, _), (_, .positiveInfinity): return .positiveInfinity
        case (.negativeInfinity, _), (_, .negativeInfinity): return .negativeInfinity
        case (.indefinite, _), (_, .indefinite): return .indefinite
        default: break
        }

        let rounded = lhs.hasBeenRounded || rhs.hasBeenRounded
        let left = UInt64(lhs.timescale), right64 = UInt64(rhs.timescale)
        let lcm = left / gcd(left, right64) * right64 // < 2^62
        if lcm <= UInt64(Int32.max) {
            let (a, o1) = lhs.value.multipliedReportingOverflow(by: Int64(lcm / left))
            let (b, o2) = rhs.value.multipliedReportingOverflow(by: Int64(lcm / right64))
            let (sum, o3) = subtracting ? a.subtractingReportingOverflow(b) : a.addingReportingOverflow(b)
            if !o1 && !o2 && !o3 {
                return MediaTime(numeric: sum, timescale: Int32(lcm), hasBeenRounded: rounded)
            }
        }
        // Exact sum over s1*s2, then rounded onto the chosen timescale.
        let a = (negative: lhs.value < 0, magnitude: Wide.product(lhs.value.magnitude, right64))
        let bNegative = (rhs.value < 0) != subtracting
        let b = (negative: bNegative, magnitude: Wide.product(rhs.value.magnitude, left))
        let sum: (negative: Bool, magnitude: Wide)
        if a.negative == b.negative {
            sum = (a.negative, a.magnitude.adding(b.magnitude)) // each < 2^95: no carry out
        } else if a.magnitude < b.magnitude {
            sum = (b.negative, b.magnitude.subtracting(a.magnitude))
        } else {
            sum = (a.negative, a.magnitude.subtracting(b.magnitude))
        }
        let target = lcm <= UInt64(Int32.max) ? Int32(lcm) : max(lhs.timescale, rhs.timescale)
        return make(negative: sum.negative, sum.magnitude, over: Wide(left * right64), timescale: target, rounded: rounded)
    }

    private var kindNegated: Kind {
        switch kind {
        case .positiveInfinity: .negativeInfinity
        case .negativeInfinity: .positiveInfinity
        default: kind
        }
    }

    /// An infinity times something of the given sign; 0 gives invalid (as 0 * inf in IEEE).
    private static func infinity(times time: MediaTime, signum: Int64) -> MediaTime {
        if signum == 0 { return .invalid }
        return (time.kind == .positiveInfinity) == (signum > 0) ? .positiveInfinity : .negativeInfinity
    }

    /// Numeric `self * (±n / d)`, d > 0: exact if some Int32 timescale holds the result.
    func scaled(by n: UInt64, over d: UInt64, negativeRatio: Bool, fallbackTimescale: Int32) -> MediaTime {
        let negative = (value < 0) != negativeRatio
        var v = value.magnitude, n = n, d = d, s = UInt64(timescale)
        if v == 0 || n == 0 {
            return MediaTime(numeric: 0, timescale: timescale, hasBeenRounded: hasBeenRounded)
        }
        // Reduce (v*n)/(s*d) to lowest terms so its denominator is the smallest exact timescale.
        var g = MediaTime.gcd(n, d); n /= g; d /= g
        g = MediaTime.gcd(v, d); v /= g; d /= g
        g = MediaTime.gcd(n, s); n /= g; s /= g
        g = MediaTime.gcd(v, s); v /= g; s /= g
        let numerator = Wide.product(v, n)
        let (exactScale, tooBig) = s.multipliedReportingOverflow(by: d)

        if !tooBig {
            let own = UInt64(timescale)
            var target: UInt64?
            if own % exactScale == 0 {
                target = own
            } else if exactScale <= UInt64(Int32.max) {
                let lcm = own / MediaTime.gcd(own, exactScale) * exactScale // < 2^62
                target = lcm <= UInt64(Int32.max) ? lcm : exactScale
            }
            if let target, let ticks = numerator.multiplied(by: target / exactScale)?.uint64,
               let signed = MediaTime.signed(ticks, negative: negative) {
                return MediaTime(numeric: signed, timescale: Int32(target), hasBeenRounded: hasBeenRounded)
            }
        }
        let denominator = tooBig ? Wide.product(s, d) : Wide(exactScale)
        return MediaTime.make(negative: negative, numerator, over: denominator,
                              timescale: fallbackTimescale, rounded: hasBeenRounded)
    }

    /// The time `±n/d` seconds on `timescale` (> 0), rounded as asked. With `halving`,
    /// an overflowing value halves the timescale and retries (CMTime's rule); ±infinity
    /// only when it overflows at timescale 1, or at once without `halving`.
    static func make(negative: Bool, _ n: Wide, over d: Wide, timescale: Int32,
                     rounding: Rounding = .nearestHalfAwayFromZero, halving: Bool = true,
                     rounded: Bool) -> MediaTime {
        var scale = timescale
        while true {
            if let scaled = n.multiplied(by: UInt64(scale)),
               let quotient = roundedQuotient(scaled, d, negative: negative, rounding),
               let ticks = signed(quotient.magnitude, negative: negative) {
                return MediaTime(numeric: ticks, timescale: scale, hasBeenRounded: rounded || !quotient.exact)
            }
            guard halving, scale > 1 else { return negative ? .negativeInfinity : .positiveInfinity }
            scale /= 2
        }
    }

    /// `n / d` rounded to an integer magnitude; `negative` is the sign of the quotient,
    /// which the directed modes need. Nil if the magnitude exceeds UInt64.
    static func roundedQuotient(_ n: Wide, _ d: Wide, negative: Bool,
                                _ rounding: Rounding) -> (magnitude: UInt64, exact: Bool)? {
        let (q, r) = n.quotientAndRemainder(dividingBy: d)
        guard let truncated = q.uint64 else { return nil }
        if r.isZero { return (truncated, true) }
        let rest = d.subtracting(r) // r > rest means the fraction is above one half
        let bump: Bool
        switch rounding {
        case .towardZero: bump = false
        case .awayFromZero: bump = true
        case .down: bump = negative
        case .up: bump = !negative
        case .nearestHalfAwayFromZero: bump = !(r < rest)
        case .nearestHalfEven: bump = rest < r || (r == rest && truncated & 1 == 1)
        }
        guard bump else { return (truncated, false) }
        let (up, overflow) = truncated.addingReportingOverflow(1)
        return overflow ? nil : (up, false)
    }

    /// Applies a sign to a magnitude if the result fits in Int64 (Int64.min included).
    static func signed(_ magnitude: UInt64, negative: Bool) -> Int64? {
        if negative {
            return magnitude <= UInt64(1) << 63 ? Int64(bitPattern: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// `|x| = mantissa * 2^exponent` exactly, mantissa odd, for finite nonzero x.
    static func binaryParts(of x: Double) -> (mantissa: UInt64, exponent: Int) {
        var mantissa = x.significandBitPattern
        var exponent = -1074 // subnormal: no implicit bit
        if x.exponentBitPattern != 0 {
            mantissa |= UInt64(1) << 52
            exponent = Int(x.exponentBitPattern) - 1075
        }
        let zeros = mantissa.trailingZeroBitCount
        return (mantissa >> UInt64(zeros), exponent + zeros)
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}

// MARK: - Wide integers

extension MediaTime {
    /// Unsigned 256-bit integer for exact intermediates (a 64-bit value times a 64-bit
    /// factor times two 32-bit timescales), so each result is rounded once, from the
    /// exact quotient. Not Int128: that needs macOS 15 on Apple platforms.
    struct Wide: Equatable {
        private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

        init(_ x: UInt64) { w0 = x }

        static func product(_ a: UInt64, _ b: UInt64) -> Wide {
            let (high, low) = a.multipliedFullWidth(by: b)
            var result = Wide(low)
            result.w1 = high
            return result
        }

        private subscript(limb: Int) -> UInt64 {
            get {
                switch limb {
                case 0: w0
                case 1: w1
                case 2: w2
                default: w3
                }
            }
            set {
                switch limb {
                case 0: w0 = newValue
                case 1: w1 = newValue
                case 2: w2 = newValue
                default: w3 = newValue
                }
            }
        }

        var isZero: Bool { w0 | w1 | w2 | w3 == 0 }
        var uint64: UInt64? { w1 | w2 | w3 == 0 ? w0 : nil }

        var bitWidth: Int {
            for limb in stride(from: 3, through: 0, by: -1) where self[limb] != 0 {
                return limb * 64 + 64 - self[limb].leadingZeroBitCount
            }
            return 0
        }

        static func < (a: Wide, b: Wide) -> Bool {
            for limb in stride(from: 3, through: 0, by: -1) where a[limb] != b[limb] {
                return a[limb] < b[limb]
            }
            return false
        }

        /// Nil when the product needs more than 256 bits.
        func multiplied(by m: UInt64) -> Wide? {
            var result = Wide(0)
            var carry: UInt64 = 0
            for limb in 0..<4 {
                let (high, low) = self[limb].multipliedFullWidth(by: m)
                let (sum, overflow) = low.addingReportingOverflow(carry)
                result[limb] = sum
                carry = high &+ (overflow ? 1 : 0) // high <= 2^64 - 2
            }
            return carry == 0 ? result : nil
        }

        func shiftedLeft(by bits: Int) -> Wide? {
            guard bits > 0 else { return self }
            guard bitWidth + bits <= 256 else { return nil }
            let limbs = bits / 64, offset = bits % 64
            var result = Wide(0)
            for limb in stride(from: 3, through: limbs, by: -1) {
                var word = self[limb - limbs] << UInt64(offset)
                if offset > 0 && limb - limbs > 0 { word |= self[limb - limbs - 1] >> UInt64(64 - offset) }
                result[limb] = word
            }
            return result
        }

        /// Modulo 2^256; callers keep sums in range.
        func adding(_ other: Wide) -> Wide {
            var result = Wide(0)
            var carry = false
            for limb in 0..<4 {
                let (a, o1) = self[limb].addingReportingOverflow(other[limb])
                let (b, o2) = a.addingReportingOverflow(carry ? 1 : 0)
                result[limb] = b
                carry = o1 || o2
            }
            return result
        }

        /// Modulo 2^256; callers subtract only a smaller or equal value.
        func subtracting(_ other: Wide) -> Wide {
            var result = Wide(0)
            var borrow = false
            for limb in 0..<4 {
                let (a, b1) = self[limb].subtractingReportingOverflow(other[limb])
                let (b, b2) = a.subtractingReportingOverflow(borrow ? 1 : 0)
                result[limb] = b
                borrow = b1 || b2
            }
            return result
        }

        /// Divisor must be nonzero (all callers pass a product of positive numbers).
        func quotientAndRemainder(dividingBy divisor: Wide) -> (quotient: Wide, remainder: Wide) {
            var quotient = Wide(0)
            if let d = divisor.uint64 {
                // One-limb divisor, the common case: word-by-word long division.
                var remainder: UInt64 = 0
                for limb in stride(from: 3, through: 0, by: -1) {
                    let step = d.dividingFullWidth((high: remainder, low: self[limb]))
                    quotient[limb] = step.quotient
                    remainder = step.remainder
                }
                return (quotient, Wide(remainder))
            }
            var remainder = Wide(0)
            for bit in stride(from: bitWidth - 1, through: 0, by: -1) {
                let carry = remainder.w3 >> 63 != 0
                remainder = remainder.shiftedLeftOne
                remainder.w0 |= (self[bit / 64] >> UInt64(bit % 64)) & 1
                if carry || !(remainder < divisor) {
                    remainder = remainder.subtracting(divisor)
                    quotient[bit / 64] |= UInt64(1) << UInt64(bit % 64)
                }
            }
            return (quotient, remainder)
        }

        private var shiftedLeftOne: Wide {
            var result = Wide(w0 << 1)
            result.w1 = w1 << 1 | w0 >> 63
            result.w2 = w2 << 1 | w1 >> 63
            result.w3 = w3 << 1 | w2 >> 63
            return result
        }
    }
}
