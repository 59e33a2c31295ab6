import Testing
import MarqueeCore

private func seconds(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime {
    MediaTime(value: value, timescale: timescale)
}

@Test func endIsStartPlusDuration() {
    let range = TimeRange(start: seconds(1, 2), duration: MediaTime(value: 1001, timescale: 30_000))
    #expect(range.end == MediaTime(value: 16_001, timescale: 30_000))
    #expect(!range.end.hasBeenRounded)

    let fromEnds = TimeRange(start: MediaTime(value: 3003, timescale: 90_000), end: seconds(1))
    #expect(fromEnds.duration == MediaTime(value: 86_997, timescale: 90_000))
    #expect(fromEnds.end == seconds(1))

    let open = TimeRange(start: seconds(5), duration: .positiveInfinity)
    #expect(open.end == .positiveInfinity)
    #expect(TimeRange(start: seconds(5), duration: .indefinite).end == .indefinite)
    #expect(TimeRange.invalid.end.kind == .invalid)
}

@Test func validityAndEmptiness() {
    #expect(TimeRange.zero.isValid && TimeRange.zero.isEmpty)
    #expect(!TimeRange.invalid.isValid && !TimeRange.invalid.isEmpty)
    #expect(TimeRange(start: seconds(3), duration: MediaTime(value: 0, timescale: 90_000)).isEmpty)
    #expect(!TimeRange(start: seconds(3), duration: seconds(1, 90_000)).isEmpty)

    #expect(!TimeRange(start: seconds(0), duration: seconds(-1, 90_000)).isValid)
    #expect(!TimeRange(start: seconds(2), end: seconds(1)).isValid)
    #expect(!TimeRange(start: .invalid, duration: seconds(1)).isValid)
    #expect(!TimeRange(start: seconds(0), duration: .invalid).isValid)
    #expect(!TimeRange(start: seconds(0), duration: .negativeInfinity).isValid)
    #expect(TimeRange(start: seconds(0), duration: .positiveInfinity).isValid)
    #expect(TimeRange(start: seconds(0), duration: .indefinite).isValid)
    #expect(TimeRange(start: .negativeInfinity, duration: seconds(1)).isValid)
}

@Test func containsIncludesStartAndExcludesEnd() {
    let second = TimeRange(start: seconds(1), end: seconds(2))
    #expect(second.contains(seconds(1)))
    #expect(second.contains(MediaTime(value: 90_000, timescale: 90_000)))
    #expect(second.contains(MediaTime(value: 179_999, timescale: 90_000)))
    #expect(!second.contains(MediaTime(value: 180_000, timescale: 90_000)))
    #expect(!second.contains(seconds(2)))
    #expect(!second.contains(MediaTime(value: 89_999, timescale: 90_000)))
    // One tick past the end in a finer timescale than the range's.
    #expect(!second.contains(MediaTime(value: 2_000_000_001, timescale: 1_000_000_000)))
    #expect(second.contains(MediaTime(value: 1_999_999_999, timescale: 1_000_000_000)))

    for time in [MediaTime.invalid, .indefinite, .positiveInfinity, .negativeInfinity] {
        #expect(!second.contains(time))
    }
    #expect(!TimeRange.zero.contains(.zero)) // empty: start == end
    #expect(!TimeRange(start: seconds(0), duration: seconds(-5)).contains(seconds(-1)))
    #expect(!TimeRange.invalid.contains(.zero))

    let live = TimeRange(start: seconds(10), duration: .indefinite)
    #expect(live.contains(MediaTime(value: .max, timescale: 1)))
    #expect(!live.contains(seconds(9)))
    let open = TimeRange(start: seconds(10), duration: .positiveInfinity)
    #expect(open.contains(MediaTime(value: .max, timescale: 1)))
    #expect(!open.contains(.positiveInfinity))
}

@Test func intersection() {
    let a = TimeRange(start: seconds(0), end: seconds(10))
    let b = TimeRange(start: MediaTime(value: 5 * 48_000, timescale: 48_000), end: seconds(15))

    let overlap = a.intersection(b)
    #expect(overlap.start == seconds(5) && overlap.end == seconds(10))
    #expect(overlap == b.intersection(a))
    #expect(overlap.duration == seconds(5))

    let inner = TimeRange(start: seconds(2), duration: MediaTime(value: 1001, timescale: 30_000))
    #expect(a.intersection(inner) == inner)

    // Disjoint and touching ranges give an empty range at the later start.
    let later = TimeRange(start: seconds(20), end: seconds(30))
    let disjoint = a.intersection(later)
    #expect(disjoint.isEmpty && disjoint.start == seconds(20))
    let touching = a.intersection(TimeRange(start: seconds(10), end: seconds(11)))
    #expect(touching.isEmpty && touching.start == seconds(10))
    let oneTick = a.intersection(TimeRange(start: MediaTime(value: 899_999, timescale: 90_000), end: seconds(11)))
    #expect(!oneTick.isEmpty && oneTick.duration == MediaTime(value: 1, timescale: 90_000))

    let open = TimeRange(start: seconds(8), duration: .positiveInfinity)
    #expect(a.intersection(open) == TimeRange(start: seconds(8), end: seconds(10)))
    #expect(open.intersection(TimeRange(start: seconds(9), duration: .positiveInfinity)).end == .positiveInfinity)

    #expect(!a.intersection(.invalid).isValid)
    #expect(!TimeRange(start: seconds(3), end: seconds(1)).intersection(a).isValid)
}

@Test func unionCoversBothAndTheGap() {
    let a = TimeRange(start: seconds(0), end: seconds(10))
    let later = TimeRange(start: seconds(20), end: MediaTime(value: 30 * 90_000 + 1, timescale: 90_000))

    let covering = a.union(later)
    #expect(covering.start == seconds(0))
    #expect(covering.end == MediaTime(value: 30 * 90_000 + 1, timescale: 90_000))
    #expect(covering == later.union(a))
    #expect(covering.contains(seconds(15)))

    let inner = TimeRange(start: seconds(2), end: seconds(3))
    #expect(a.union(inner) == a)
    #expect(a.union(TimeRange(start: seconds(5), duration: .positiveInfinity)).end == .positiveInfinity)
    #expect(!a.union(.invalid).isValid)
    #expect(!TimeRange.invalid.union(a).isValid)
}

@Test func rangeEqualityAndDescription() {
    let a = TimeRange(start: seconds(1, 2), duration: seconds(1))
    let b = TimeRange(start: MediaTime(value: 45_000, timescale: 90_000), duration: MediaTime(value: 48_000, timescale: 48_000))
    #expect(a == b)
    #expect(Set([a, b]).count == 1)
    #expect(a.description == "[1/2 (0.5000 s), 3/2 (1.5000 s))")
    #expect(TimeRange.invalid.description == "invalid range")
}
