import Testing
import MarqueeCore

// MARK: - Exact accumulation

@Test func addingOneThirtiethThirtyThousandTimesIsExactlyOneThousandSeconds() {
    let frame = MediaTime(value: 1, timescale: 30)
    var total = MediaTime.zero
    for _ in 0..<30_000 { total += frame }

    #expect(total == MediaTime(value: 1000, timescale: 1))
    #expect(total.value == 30_000)
    #expect(total.timescale == 30)
    #expect(!total.hasBeenRounded)

    let inSeconds = total.converted(toTimescale: 1)
    #expect(inSeconds.value == 1000)
    #expect(inSeconds.timescale == 1)
    #expect(!inSeconds.hasBeenRounded)

    // The same sum in Doubles drifts; this is what the rational type avoids.
    var drifting = 0.0
    for _ in 0..<30_000 { drifting += 1.0 / 30 }
    #expect(drifting != 1000)
}

@Test func accumulatingAcrossTimescalesStaysExact() {
    // 30000 NTSC frames (1001/30000 s each) are exactly 1001 s.
    var video = MediaTime.zero
    let ntscFrame = MediaTime(value: 1001, timescale: 30000)
    for _ in 0..<30_000 { video += ntscFrame }
    #expect(video == MediaTime(value: 1001, timescale: 1))
    #expect(!video.hasBeenRounded)

    // 48000 ticks at 90 kHz plus 48000 at 48 kHz, interleaved: 48000/90000 s + 1 s.
    var mixed = MediaTime.zero
    for _ in 0..<48_000 {
        mixed += MediaTime(value: 1, timescale: 90_000)
        mixed += MediaTime(value: 1, timescale: 48_000)
    }
    #expect(mixed == MediaTime(value: 48_000 + 90_000, timescale: 90_000))
    #expect(mixed.timescale == 720_000) // lcm(90000, 48000)
    #expect(!mixed.hasBeenRounded)
}

// MARK: - Exact comparison across timescales

@Test func comparisonAcrossTimescalesIsExact() {
    // 5 NTSC frames = 5005/30000 s = 15015 ticks at 90 kHz = 8008 samples at 48 kHz.
    let at90k = MediaTime(value: 15_015, timescale: 90_000)
    let at48k = MediaTime(value: 8_008, timescale: 48_000)
    let ntsc = MediaTime(value: 5, timeBase: 1001, 30000)
    #expect(ntsc.value == 5005 && ntsc.timescale == 30_000)

    let equal = [at90k, at48k, ntsc]
    for a in equal {
        for b in equal {
            #expect(a == b)
            #expect(!(a < b) && !(b < a))
            #expect(a.hashValue == b.hashValue)
        }
    }
    #expect(Set(equal).count == 1)

    // One tick either side is strictly ordered against every representation.
    let neighbours: [(below: MediaTime, above: MediaTime)] = [
        (MediaTime(value: 15_014, timescale: 90_000), MediaTime(value: 15_016, timescale: 90_000)),
        (MediaTime(value: 8_007, timescale: 48_000), MediaTime(value: 8_009, timescale: 48_000)),
        (MediaTime(value: 4, timeBase: 1001, 30000), MediaTime(value: 6, timeBase: 1001, 30000)),
        (MediaTime(value: 5004, timescale: 30_000), MediaTime(value: 5006, timescale: 30_000)),
    ]
    for (below, above) in neighbours {
        for time in equal {
            #expect(below < time)
            #expect(time < above)
            #expect(below != time && above != time)
            #expect(time > below && above > time)
        }
    }
}

@Test func comparisonIsExactWhereDoublesAreNot() {
    // 2^53 + 1 s against 2^53 + 1/2 s: both are 2^53 as Doubles.
    let a = MediaTime(value: (1 << 53) + 1, timescale: 1)
    let b = MediaTime(value: (1 << 54) + 1, timescale: 2)
    #expect(a.seconds == b.seconds)
    #expect(b < a)
    #expect(a != b)

    // One 90 kHz tick above 2^40 s, against exactly 2^40 s at 48 kHz.
    let c = MediaTime(value: 90_000 * (1 << 40) + 1, timescale: 90_000)
    let d = MediaTime(value: 48_000 * (1 << 40), timescale: 48_000)
    #expect(c.seconds == d.seconds)
    #expect(d < c)
    #expect(c - d == MediaTime(value: 1, timescale: 90_000))

    // Extremes of both fields, where a*t overflows Int64.
    let huge = MediaTime(value: .max, timescale: 1)
    let hugeFine = MediaTime(value: .max, timescale: .max)
    #expect(hugeFine < huge)
    #expect(MediaTime(value: .min, timescale: 1) < MediaTime(value: .min, timescale: 3))
    #expect(MediaTime(value: .max, timescale: 7) > MediaTime(value: .max - 1, timescale: 7))
}

@Test func equalTimesHashAlike() {
    let halves = [MediaTime(value: 1, timescale: 2), MediaTime(value: 2, timescale: 4),
                  MediaTime(value: 45_000, timescale: 90_000), MediaTime(value: 3, timescale: 6)]
    #expect(Set(halves).count == 1)
    #expect(Set([MediaTime.zero, MediaTime(value: 0, timescale: 48_000)]).count == 1)
    #expect(Set([MediaTime(value: -1, timescale: 2), MediaTime(value: 1, timescale: 2)]).count == 2)
    #expect(Set([MediaTime.invalid, .invalid, .indefinite, .positiveInfinity, .negativeInfinity]).count == 4)
    var lookup = [MediaTime(value: 2002, timescale: 60_000): "frame 1"]
    lookup[MediaTime(value: 1, timeBase: 1001, 30000)] = "replaced"
    #expect(lookup.count == 1)
    #expect(lookup.values.first == "replaced")
    // Rounding does not take part in equality.
    let rounded = MediaTime(value: 1, timescale: 3).converted(toTimescale: 10)
    #expect(rounded.hasBeenRounded)
    #expect(rounded == MediaTime(value: 3, timescale: 10))
}

// MARK: - Non-numeric values

@Test func nonNumericValuesPropagateAsCMTimeDoes() {
    let x = MediaTime(value: 1, timescale: 2)
    let inf = MediaTime.positiveInfinity, ninf = MediaTime.negativeInfinity
    let indef = MediaTime.indefinite, bad = MediaTime.invalid

    let sums: [(MediaTime, MediaTime, MediaTime.Kind)] = [
        (bad, x, .invalid), (x, bad, .invalid), (bad, inf, .invalid), (indef, bad, .invalid), (bad, bad, .invalid),
        (indef, x, .indefinite), (x, indef, .indefinite), (indef, indef, .indefinite),
        (indef, inf, .positiveInfinity), (ninf, indef, .negativeInfinity),
        (inf, x, .positiveInfinity), (x, inf, .positiveInfinity), (inf, inf, .positiveInfinity),
        (ninf, x, .negativeInfinity), (x, ninf, .negativeInfinity), (ninf, ninf, .negativeInfinity),
        (inf, ninf, .invalid), (ninf, inf, .invalid),
        (x, x, .numeric),
    ]
    for (lhs, rhs, expected) in sums {
        #expect((lhs + rhs).kind == expected, "\(lhs) + \(rhs)")
    }

    let differences: [(MediaTime, MediaTime, MediaTime.Kind)] = [
        (inf, inf, .invalid), (ninf, ninf, .invalid), (inf, ninf, .positiveInfinity), (ninf, inf, .negativeInfinity),
        (x, inf, .negativeInfinity), (x, ninf, .positiveInfinity), (inf, x, .positiveInfinity),
        (indef, x, .indefinite), (x, indef, .indefinite), (x, bad, .invalid), (bad, x, .invalid),
        (x, x, .numeric),
    ]
    for (lhs, rhs, expected) in differences {
        #expect((lhs - rhs).kind == expected, "\(lhs) - \(rhs)")
    }

    #expect((-inf).kind == .negativeInfinity)
    #expect((-ninf).kind == .positiveInfinity)
    #expect((-indef).kind == .indefinite)
    #expect((-bad).kind == .invalid)

    let products: [(MediaTime, MediaTime.Kind)] = [
        (bad * 2, .invalid), (indef * 0, .indefinite), (indef * -3, .indefinite),
        (inf * 3, .positiveInfinity), (inf * -3, .negativeInfinity), (ninf * -3, .positiveInfinity),
        (inf * 0, .invalid), ((-2) * ninf, .positiveInfinity),
        (x.multiplied(by: 1, dividedBy: 0), .invalid), (inf.multiplied(by: 1, dividedBy: -2), .negativeInfinity),
        (ninf.multiplied(by: -1, dividedBy: -2), .negativeInfinity), (inf.multiplied(by: 0, dividedBy: 5), .invalid),
        (indef.multiplied(by: 3, dividedBy: 2), .indefinite), (bad.multiplied(by: 1, dividedBy: 1), .invalid),
        (x.multiplied(byRate: .nan), .invalid), (indef.multiplied(byRate: .nan), .invalid),
        (indef.multiplied(byRate: 2), .indefinite), (bad.multiplied(byRate: 1), .invalid),
        (x.multiplied(byRate: .infinity), .positiveInfinity), ((-x).multiplied(byRate: .infinity), .negativeInfinity),
        (x.multiplied(byRate: -.infinity), .negativeInfinity), (MediaTime.zero.multiplied(byRate: .infinity), .invalid),
        (inf.multiplied(byRate: -0.5), .negativeInfinity), (inf.multiplied(byRate: 0), .invalid),
    ]
    for (index, (result, expected)) in products.enumerated() {
        #expect(result.kind == expected, "product #\(index): \(result)")
    }

    // Non-numeric values carry no value, timescale or rounding flag.
    for time in [bad, indef, inf, ninf] {
        #expect(!time.isNumeric)
        #expect(time.value == 0 && time.timescale == 0 && !time.hasBeenRounded)
        #expect(time.converted(toTimescale: 600).kind == time.kind)
        #expect(time.value(inTimeBase: 1, 90_000, rounding: .towardZero) == nil)
    }
    #expect(bad.seconds.isNaN)
    #expect(indef.seconds.isNaN)
    #expect(inf.seconds == .infinity)
    #expect(ninf.seconds == -.infinity)
    #expect(!bad.isValid && indef.isValid && inf.isValid && ninf.isValid && x.isValid)
    #expect(inf.isInfinite && ninf.isInfinite && !indef.isInfinite && !x.isInfinite)
    #expect(indef.isIndefinite && !inf.isIndefinite)
    #expect(MediaTime(value: 1, timescale: 0).kind == .invalid)
    #expect(MediaTime(value: 1, timescale: -30).kind == .invalid)
}

@Test func orderingOfNonNumericValues() {
    let small = MediaTime(value: .min, timescale: 1)
    let large = MediaTime(value: .max, timescale: 1)
    let shuffled: [MediaTime] = [.indefinite, large, .invalid, .positiveInfinity, .zero, .negativeInfinity, small]
    let sorted = shuffled.sorted()
    let expectedKinds: [MediaTime.Kind] = [.negativeInfinity, .numeric, .numeric, .numeric,
                                           .indefinite, .positiveInfinity, .invalid]
    #expect(sorted.map(\.kind) == expectedKinds)
    #expect(sorted[1] == small && sorted[2] == .zero && sorted[3] == large)

    #expect(MediaTime.invalid == MediaTime.invalid)
    #expect(MediaTime.invalid == MediaTime(value: 5, timescale: 0))
    #expect(MediaTime.positiveInfinity < .invalid)
    #expect(MediaTime.negativeInfinity < small)
    #expect(large < .indefinite)
    #expect(MediaTime.indefinite < .positiveInfinity)
    #expect(MediaTime.indefinite == .indefinite && MediaTime.positiveInfinity == .positiveInfinity)
    #expect(MediaTime.compare(.invalid, .zero) == 1)
    #expect(MediaTime.compare(.indefinite, .positiveInfinity) == -1)
    #expect(MediaTime.compare(MediaTime(value: 1, timescale: 2), MediaTime(value: 3, timescale: 6)) == 0)

    #expect(max(MediaTime.invalid, .zero).kind == .invalid)
    #expect(min(MediaTime.invalid, .zero) == .zero)
    #expect(min(MediaTime(value: 1001, timescale: 30_000), MediaTime(value: 3003, timescale: 90_000)).timescale == 30_000)
    #expect(max(MediaTime(value: 1, timescale: 30), MediaTime(value: 1601, timescale: 48_000)).value == 1601)
    #expect(max(MediaTime(value: 1, timescale: 30), MediaTime(value: 1599, timescale: 48_000)).value == 1)
}

// MARK: - Rounding

private let tenths: [Int64] = [-25, -16, -15, -14, -5, 5, 14, 15, 16, 25]
private let expectedByMode: [(MediaTime.Rounding, [Int64])] = [
    (.towardZero, [-2, -1, -1, -1, 0, 0, 1, 1, 1, 2]),
    (.awayFromZero, [-3, -2, -2, -2, -1, 1, 2, 2, 2, 3]),
    (.down, [-3, -2, -2, -2, -1, 0, 1, 1, 1, 2]),
    (.up, [-2, -1, -1, -1, 0, 1, 2, 2, 2, 3]),
    (.nearestHalfAwayFromZero, [-3, -2, -2, -1, -1, 1, 1, 2, 2, 3]),
    (.nearestHalfEven, [-2, -2, -2, -1, 0, 0, 1, 2, 2, 2]),
]

@Test func roundingModesOnHalvesAndNonHalves() {
    #expect(Set(expectedByMode.map { $0.0 }) == Set(MediaTime.Rounding.allCases))
    for (mode, expected) in expectedByMode {
        for (tenth, want) in zip(tenths, expected) {
            let converted = MediaTime(value: tenth, timescale: 10).converted(toTimescale: 1, rounding: mode)
            #expect(converted.value == want, "\(tenth)/10 \(mode)")
            #expect(converted.timescale == 1)
            #expect(converted.hasBeenRounded)
            // The same rule through a libav time base of 1/1.
            let pts = MediaTime(value: tenth, timescale: 10).value(inTimeBase: 1, 1, rounding: mode)
            #expect(pts == want, "\(tenth)/10 as pts, \(mode)")
        }
        let exact = MediaTime(value: -20, timescale: 10).converted(toTimescale: 1, rounding: mode)
        #expect(exact.value == -2 && !exact.hasBeenRounded)
    }
    // Default is CMTime's: halves away from zero.
    #expect(MediaTime(value: 5, timescale: 10).converted(toTimescale: 1).value == 1)
    #expect(MediaTime(value: -5, timescale: 10).converted(toTimescale: 1).value == -1)
    // Rounding sticks to everything derived from a rounded time.
    let rounded = MediaTime(value: 1, timescale: 3).converted(toTimescale: 10)
    #expect((rounded + MediaTime(value: 1, timescale: 10)).hasBeenRounded)
    #expect((-rounded).hasBeenRounded)
    #expect((rounded * 3).hasBeenRounded)
    #expect(rounded.converted(toTimescale: 20).hasBeenRounded)
}

@Test func exactConversionsAreNotMarkedRounded() {
    let third = MediaTime(value: 1, timescale: 3)
    let up = third.converted(toTimescale: 90)
    #expect(up.value == 30 && up.timescale == 90 && !up.hasBeenRounded)
    let down = MediaTime(value: 180_000, timescale: 90_000).converted(toTimescale: 1)
    #expect(down.value == 2 && !down.hasBeenRounded)
    #expect(MediaTime(value: 1, timescale: 3).converted(toTimescale: 0).kind == .invalid)
}

// MARK: - libav time bases

@Test func libavTimeBasesConvertExactly() {
    let pts7 = MediaTime(value: 7, timeBase: 1001, 30000)
    #expect(pts7.value == 7007 && pts7.timescale == 30_000 && !pts7.hasBeenRounded)
    #expect(pts7.value(inTimeBase: 1001, 30000, rounding: .towardZero) == 7)

    let mpegTS = MediaTime(value: 3003, timeBase: 1, 90000)
    #expect(mpegTS.value == 3003 && mpegTS.timescale == 90_000)
    #expect(mpegTS == MediaTime(value: 1, timeBase: 1001, 30000))

    // A time base that is not in lowest terms is reduced first.
    let reduced = MediaTime(value: 3, timeBase: 2, 50)
    #expect(reduced.value == 3 && reduced.timescale == 25)
    // A negative denominator moves the sign to the value.
    let flipped = MediaTime(value: 5, timeBase: 1, -10)
    #expect(flipped.value == -5 && flipped.timescale == 10)
    #expect(MediaTime(value: 5, timeBase: 1, 0).kind == .invalid)
    let minDen = MediaTime(value: 1, timeBase: 1, .min)
    #expect(minDen.isNumeric && minDen < .zero && minDen.hasBeenRounded) // 2^31 is not an Int32

    // Round trips through several time bases, negative pts included.
    let bases: [(Int32, Int32)] = [(1, 90_000), (1001, 30_000), (1, 1000), (1, 48_000), (1, 25)]
    let samples: [Int64] = [-1_000_000, -1, 0, 1, 7, 123_456_789, 1 << 40]
    for (num, den) in bases {
        for pts in samples {
            let time = MediaTime(value: pts, timeBase: num, den)
            #expect(!time.hasBeenRounded)
            for mode in MediaTime.Rounding.allCases {
                #expect(time.value(inTimeBase: num, den, rounding: mode) == pts, "\(pts) in \(num)/\(den)")
            }
        }
    }

    // 90 kHz to 48 kHz: 3003 ticks are 1601.6 samples.
    let positive = MediaTime(value: 3003, timeBase: 1, 90000)
    #expect(positive.value(inTimeBase: 1, 48000, rounding: .towardZero) == 1601)
    #expect(positive.value(inTimeBase: 1, 48000, rounding: .down) == 1601)
    #expect(positive.value(inTimeBase: 1, 48000, rounding: .up) == 1602)
    #expect(positive.value(inTimeBase: 1, 48000, rounding: .nearestHalfEven) == 1602)
    let negative = MediaTime(value: -3003, timeBase: 1, 90000)
    #expect(negative.value(inTimeBase: 1, 48000, rounding: .towardZero) == -1601)
    #expect(negative.value(inTimeBase: 1, 48000, rounding: .down) == -1602)
    #expect(negative.value(inTimeBase: 1, 48000, rounding: .up) == -1601)
    #expect(negative.value(inTimeBase: 1, 48000, rounding: .nearestHalfAwayFromZero) == -1602)

    #expect(positive.value(inTimeBase: 0, 48000, rounding: .up) == nil)
    #expect(positive.value(inTimeBase: 1, 0, rounding: .up) == nil)
    #expect(MediaTime(value: .max, timescale: 1).value(inTimeBase: 1, 1000, rounding: .down) == nil)
    #expect(MediaTime(value: .min, timescale: 1).value(inTimeBase: 1, 1, rounding: .down) == .min)
}

@Test func libavTimestampTooLargeForExactTicksIsRounded() {
    // Int64.max units of 1001/30000 s: value * 1001 overflows, so the timescale shrinks.
    let time = MediaTime(value: .max, timeBase: 1001, 30000)
    #expect(time.isNumeric)
    #expect(time.hasBeenRounded)
    #expect(time.timescale < 30_000 && time.timescale > 0)
    let expectedSeconds = Double(Int64.max) * 1001 / 30000
    #expect(abs(time.seconds - expectedSeconds) <= expectedSeconds * 1e-12)
    // Still ordered against a nearby timestamp in the same time base.
    #expect(time > MediaTime(value: .max - 1_000_000, timeBase: 1001, 30000))

    // Beyond what any timescale holds.
    #expect(MediaTime(value: 1 << 62, timeBase: 4, 1).kind == .positiveInfinity)
    #expect(MediaTime(value: -(1 << 62), timeBase: 4, 1).kind == .negativeInfinity)
}

// MARK: - Seconds

@Test func secondsRoundTrip() {
    let exact = MediaTime(seconds: 1.5, preferredTimescale: 600)
    #expect(exact.value == 900 && exact.timescale == 600 && !exact.hasBeenRounded)
    #expect(exact.seconds == 1.5)

    let quarter = MediaTime(seconds: -1.25, preferredTimescale: 4)
    #expect(quarter.value == -5 && !quarter.hasBeenRounded)

    // 0.1 is not a binary fraction, but 100/1000 converts back to the same Double.
    let tenth = MediaTime(seconds: 0.1, preferredTimescale: 1000)
    #expect(tenth.value == 100 && !tenth.hasBeenRounded)

    let tooFine = MediaTime(seconds: 0.0001, preferredTimescale: 600)
    #expect(tooFine.value == 0 && tooFine.hasBeenRounded)

    // 2^-11 s is exactly half a tick at 1024 Hz: away from zero both ways.
    #expect(MediaTime(seconds: 0x1p-11, preferredTimescale: 1024).value == 1)
    #expect(MediaTime(seconds: -0x1p-11, preferredTimescale: 1024).value == -1)

    for seconds in [0.0, 1.5, -2.25, 0.1, 1.0 / 3, 12_345.678, -0.000_001, 86_400.04] {
        let time = MediaTime(seconds: seconds, preferredTimescale: 1_000_000_000)
        #expect(time.timescale == 1_000_000_000)
        #expect(abs(time.seconds - seconds) <= 0.5e-9 + abs(seconds) * 1e-15, "\(seconds)")
    }

    #expect(MediaTime(seconds: .nan, preferredTimescale: 600).kind == .invalid)
    #expect(MediaTime(seconds: .infinity, preferredTimescale: 600).kind == .positiveInfinity)
    #expect(MediaTime(seconds: -.infinity, preferredTimescale: 600).kind == .negativeInfinity)
    #expect(MediaTime(seconds: 1, preferredTimescale: 0).kind == .invalid)
    #expect(MediaTime(seconds: Double.leastNonzeroMagnitude, preferredTimescale: 600).value == 0)
}

@Test func secondsTooLargeForTimescaleHalveItThenBecomeInfinite() {
    // 1e15 s at 1 GHz needs 1e24 ticks; the timescale halves until 1e15 * t fits.
    let large = MediaTime(seconds: 1e15, preferredTimescale: 1_000_000_000)
    #expect(large.isNumeric)
    #expect(large.timescale == 7629) // 10^9 halved 17 times
    #expect(large.value == 7629 * 1_000_000_000_000_000)
    #expect(large.seconds == 1e15)
    #expect(!large.hasBeenRounded)

    #expect(MediaTime(seconds: 1e30, preferredTimescale: 600).kind == .positiveInfinity)
    #expect(MediaTime(seconds: -1e30, preferredTimescale: 600).kind == .negativeInfinity)
    #expect(MediaTime(seconds: .greatestFiniteMagnitude, preferredTimescale: 1).kind == .positiveInfinity)
}

// MARK: - Overflow

@Test func overflowBecomesInfinityInsteadOfTrapping() {
    let max1 = MediaTime(value: .max, timescale: 1)
    let min1 = MediaTime(value: .min, timescale: 1)
    let one = MediaTime(value: 1, timescale: 1)

    #expect((max1 + one).kind == .positiveInfinity)
    #expect((min1 - one).kind == .negativeInfinity)
    #expect((max1 - min1).kind == .positiveInfinity)
    #expect((-min1).kind == .positiveInfinity)
    #expect((max1 * 2).kind == .positiveInfinity)
    #expect((max1 * -2).kind == .negativeInfinity)
    #expect((min1 * -1).kind == .positiveInfinity)
    #expect(max1.multiplied(by: 3, dividedBy: 2).kind == .positiveInfinity)
    #expect(max1.multiplied(byRate: 1.5).kind == .positiveInfinity)
    #expect(max1.multiplied(byRate: -0x1p100).kind == .negativeInfinity)
    #expect(max1.converted(toTimescale: 2).kind == .positiveInfinity)
    #expect(min1.converted(toTimescale: 2).kind == .negativeInfinity)
    // Not an overflow: on timescale 1, (2^63 - 1) + 1/3 rounds back to 2^63 - 1.
    let nearMax = max1 + MediaTime(value: 1, timescale: 3)
    #expect(nearMax.value == .max && nearMax.timescale == 1 && nearMax.hasBeenRounded)
    #expect((max1 + MediaTime(value: 2, timescale: 3)).kind == .positiveInfinity)

    // Values that fit exactly still do.
    #expect(max1 + MediaTime(value: -1, timescale: 1) == MediaTime(value: .max - 1, timescale: 1))
    #expect((min1 + MediaTime(value: 0, timescale: 7)).value == .min)
}

@Test func overflowHalvesTheTimescaleBeforeGivingUp() {
    // (2^63 - 1)/2 + 1/2 = 2^62 s exactly, which fits once the timescale is 1.
    let sum = MediaTime(value: .max, timescale: 2) + MediaTime(value: 1, timescale: 2)
    #expect(sum.value == 1 << 62 && sum.timescale == 1 && !sum.hasBeenRounded)

    let negated = -MediaTime(value: .min, timescale: 2)
    #expect(negated.value == 1 << 62 && negated.timescale == 1 && !negated.hasBeenRounded)

    let product = MediaTime(value: 1 << 62, timescale: 4) * 4
    #expect(product.value == 1 << 62 && product.timescale == 1 && !product.hasBeenRounded)

    // Exact after halving: (2^63 - 1)/3 s * 3 is 2^63 - 1 whole seconds.
    let whole = MediaTime(value: .max, timescale: 3) * 3
    #expect(whole.value == .max && whole.timescale == 1 && !whole.hasBeenRounded)
    // Inexact after halving: 2 * (2^63 - 1)/3 s = 6148914691236517204.67 s.
    let odd = MediaTime(value: .max, timescale: 3) * 2
    #expect(odd.timescale == 1 && odd.hasBeenRounded)
    #expect(odd.value == 6_148_914_691_236_517_205)
}

// MARK: - Arithmetic

@Test func arithmeticAcrossTimescales() {
    let a = MediaTime(value: 1001, timescale: 30_000)
    let b = MediaTime(value: 1, timescale: 48_000)
    let sum = a + b
    #expect(sum.timescale == 240_000) // lcm(30000, 48000)
    #expect(sum.value == 8008 + 5)
    #expect(sum - b == a)
    #expect(sum - a == b)
    #expect(a - a == .zero)
    #expect((-a).value == -1001 && (-a).timescale == 30_000)
    var running = a
    running -= b
    running += b
    #expect(running == a)

    // LCM beyond Int32: rounded onto the larger timescale.
    let p = MediaTime(value: 1, timescale: 1_000_000_007)
    let q = MediaTime(value: 1, timescale: 999_999_937)
    let rounded = p + q
    #expect(rounded.timescale == 1_000_000_007)
    #expect(rounded.value == 2)
    #expect(rounded.hasBeenRounded)
    #expect((p - q).value == 0 && (p - q).hasBeenRounded)
}

@Test func multiplicationIsExact() {
    let frame = MediaTime(value: 1001, timescale: 30_000)
    #expect(frame * 30 == MediaTime(value: 1001, timescale: 1000))
    #expect((frame * 30).timescale == 30_000)
    #expect(-3 * frame == MediaTime(value: -3003, timescale: 30_000))
    var scaled = frame
    scaled *= 0
    #expect(scaled == .zero)

    // Stays on the operand's grid when the result lands on it.
    let half = MediaTime(value: 2, timescale: 30).multiplied(by: 1, dividedBy: 2)
    #expect(half.value == 1 && half.timescale == 30 && !half.hasBeenRounded)
    // Moves to a finer multiple when it does not.
    let third = MediaTime(value: 1, timescale: 30).multiplied(by: 1, dividedBy: 3)
    #expect(third.value == 1 && third.timescale == 90 && !third.hasBeenRounded)
    let negative = MediaTime(value: 3, timescale: 10).multiplied(by: 2, dividedBy: -7)
    #expect(negative == MediaTime(value: -6, timescale: 70) && !negative.hasBeenRounded)
    // Smallest exact timescale when no multiple of the operand's fits in Int32.
    let fine = MediaTime(value: 1_000_000_000, timescale: 1_000_000_000).multiplied(by: 2, dividedBy: 3_000_000_000)
    #expect(fine.value == 1 && fine.timescale == 1_500_000_000 && !fine.hasBeenRounded)
    // No exact Int32 timescale: rounded on the operand's, from the exact quotient
    // ((2^63 - 1) * 3 / (2^62 + 1) = 5.99...).
    let inexact = MediaTime(value: .max, timescale: 1_000_000_000).multiplied(by: 3, dividedBy: (1 << 62) + 1)
    #expect(inexact.value == 6 && inexact.timescale == 1_000_000_000 && inexact.hasBeenRounded)
    let inexactDown = MediaTime(value: .max, timescale: 1_000_000_000).multiplied(by: -3, dividedBy: (1 << 62) + 3)
    #expect(inexactDown.value == -6 && inexactDown.hasBeenRounded)
}

@Test func multiplicationByPlaybackRate() {
    let frame = MediaTime(value: 1, timescale: 30)
    let halfSpeed = frame.multiplied(byRate: 0.5)
    #expect(halfSpeed == MediaTime(value: 1, timescale: 60) && !halfSpeed.hasBeenRounded)
    let onGrid = MediaTime(value: 2, timescale: 30).multiplied(byRate: 0.5)
    #expect(onGrid.value == 1 && onGrid.timescale == 30)
    #expect(MediaTime(value: 1, timescale: 1).multiplied(byRate: 1.5) == MediaTime(value: 3, timescale: 2))
    #expect(MediaTime(value: 3, timescale: 30).multiplied(byRate: -2) == MediaTime(value: -6, timescale: 30))
    #expect(frame.multiplied(byRate: 1) == frame)
    #expect(frame.multiplied(byRate: 0) == .zero)
    #expect(frame.multiplied(byRate: -0.0) == .zero)

    // 0.1 has no exact binary value: rounded onto a timescale of at least 65536.
    let tenth = MediaTime(value: 1, timescale: 1).multiplied(byRate: 0.1)
    #expect(tenth.value == 6554 && tenth.timescale == 65_536 && tenth.hasBeenRounded)

    // Huge and tiny rates.
    let fast = MediaTime(value: 1, timescale: 1 << 30).multiplied(byRate: 0x1p70)
    #expect(fast == MediaTime(value: 1 << 40, timescale: 1) && !fast.hasBeenRounded)
    #expect(fast.timescale == 1 << 22)
    let slow = MediaTime(value: 1, timescale: 1).multiplied(byRate: 0x1p-100)
    #expect(slow.value == 0 && slow.hasBeenRounded)
    // 2^40 s * 2^-70 is exactly 2^-30 s once the powers of two cancel.
    let exactSlow = MediaTime(value: 1 << 40, timescale: 1).multiplied(byRate: 0x1p-70)
    #expect(exactSlow.value == 1 && exactSlow.timescale == 1 << 30 && !exactSlow.hasBeenRounded)
}

// MARK: - Description

@Test func descriptions() {
    #expect(MediaTime(value: 1001, timescale: 30_000).description == "1001/30000 (0.0334 s)")
    #expect(MediaTime(value: -1, timescale: 3).description == "-1/3 (-0.3333 s)")
    #expect(MediaTime(value: 2, timescale: 3).description == "2/3 (0.6667 s)")
    #expect(MediaTime(value: 99_999, timescale: 100_000).description == "99999/100000 (1.0000 s)")
    #expect(MediaTime(value: -1, timescale: 30_000).description == "-1/30000 (0.0000 s)")
    #expect(MediaTime.zero.description == "0/1 (0.0000 s)")
    #expect(MediaTime(value: .min, timescale: 1).description == "-9223372036854775808/1 (-9223372036854775808.0000 s)")
    #expect(MediaTime(value: 1, timescale: 3).converted(toTimescale: 10).description == "3/10 (0.3000 s, rounded)")
    #expect(MediaTime.invalid.description == "invalid")
    #expect(MediaTime.indefinite.description == "indefinite")
    #expect(MediaTime.positiveInfinity.description == "+infinity")
    #expect(MediaTime.negativeInfinity.description == "-infinity")
}
