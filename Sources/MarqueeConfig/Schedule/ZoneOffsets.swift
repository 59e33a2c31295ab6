/// A zone's UTC offsets over a span of time, as pieces of constant offset,
/// found by sampling the C library's offset every three hours and
/// bisecting each change to the second. Two changes less than three hours
/// apart that cancel out would be missed; tzdata has none.
/// A value: built under the zone's lock, used without it.
struct ZoneOffsets: Sendable {
    /// The first instant of each piece (seconds since the epoch) and its offset, in time order.
    private var pieces: [(start: Int, offset: Int)] = []
    let span: ClosedRange<Int>

    static let sampleStep = 3 * 3600

    /// - Parameter span: seconds since the epoch; instants outside it take the offset at its nearer end.
    init(_ zone: LocalZone, covering span: ClosedRange<Int>) {
        self.span = span
        pieces = zone.withOffsets { offsetAt in
            var pieces = [(start: span.lowerBound, offset: offsetAt(span.lowerBound))]
            var sample = span.lowerBound
            while sample < span.upperBound {
                let next = min(sample + Self.sampleStep, span.upperBound)
                let nextOffset = offsetAt(next)
                // Each change between the samples, in turn (more than one only where a zone changed twice within hours).
                while nextOffset != pieces.last!.offset {
                    var (before, after) = (max(sample, pieces.last!.start), next)
                    let current = pieces.last!.offset
                    while after - before > 1 {
                        let middle = before + (after - before) / 2
                        if offsetAt(middle) == current { before = middle } else { after = middle }
                    }
                    pieces.append((after, offsetAt(after)))
                }
                sample = next
            }
            return pieces
        }
    }

    /// The offset at `seconds` (seconds east of UTC).
    func offset(at seconds: Int) -> Int {
        pieces[pieceIndex(containing: seconds)].offset
    }

    /// The local seconds (since 1970-01-01T00:00 local) at `seconds` since the epoch.
    func local(_ seconds: Int) -> Int { seconds + offset(at: seconds) }

    /// The local day (days since 1970-01-01 local) at `seconds` since the epoch.
    func localDay(_ seconds: Int) -> Int { local(seconds).floorDivided(by: 86_400) }

    /// The first instant at which the local wall-clock time reaches `localSeconds`
    /// (seconds since 1970-01-01T00:00 local): where it is skipped (clocks
    /// put forward), the instant of the jump; where it is repeated (clocks
    /// put back), its first occurrence. The span must reach a day (86,400 s,
    /// more than any offset) either side of `localSeconds` taken as UTC.
    func firstInstant(reaching localSeconds: Int) -> Int {
        precondition(span.contains(localSeconds - 86_400) && span.contains(localSeconds + 86_400),
                     "\(localSeconds) is not within a day of \(span)")
        // On each piece, local time is t + offset: the first t there that reaches the target is
        // target - offset, or the piece's start if that is earlier; the earliest piece with one wins.
        let first = pieceIndex(containing: localSeconds - 86_400)
        for index in first..<pieces.count {
            let start = max(pieces[index].start, localSeconds - 86_400)
            let end = index + 1 < pieces.count ? pieces[index + 1].start : Int.max
            let candidate = max(start, localSeconds - pieces[index].offset)
            if candidate < end { return candidate }
        }
        preconditionFailure("no offset reaches \(localSeconds) within a day")
    }

    private func pieceIndex(containing seconds: Int) -> Int {
        // The last piece starting at or before `seconds` (the first for anything before the span).
        var (low, high) = (0, pieces.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if pieces[middle].start <= seconds { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
