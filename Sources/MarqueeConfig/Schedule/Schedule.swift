import MarqueeCore

/// What is scheduled when: the `[[schedule]]` entries in a local time zone.
/// At every instant the first entry (in file order) with a window holding
/// it decides; where none does, the default playlist plays with the screen
/// on. A window begins at the first instant the local wall-clock time
/// reaches its start and ends at the first instant it reaches its end
/// (docs/schedule.md), so daylight saving changes move boundaries but never
/// split a window.
///
/// A value type; its methods read the zone's offsets through the C library
/// (under `LocalZone`'s lock), so they may be called from any thread, and
/// they do no I/O beyond the zone file the C library reads once.
/// Instants are `WallTime`s: only `secondsSinceEpoch` is read from those
/// given; those returned carry this zone's offset at that instant.
public struct Schedule: Sendable, Equatable {
    public var entries: [ScheduleEntry]
    public var zone: LocalZone

    public init(entries: [ScheduleEntry], zone: LocalZone = .system) {
        self.entries = entries
        self.zone = zone
    }

    /// What is scheduled at an instant, and when that next changes.
    public struct State: Sendable, Equatable {
        public var content: ScheduledContent
        /// The first instant after `time` with other content; nil when it never changes again.
        public var nextChange: WallTime?

        public init(content: ScheduledContent, nextChange: WallTime?) {
            self.content = content
            self.nextChange = nextChange
        }
    }

    /// A stretch of time with one content: [`from`, `until`).
    public struct Segment: Sendable, Equatable {
        public var from: WallTime
        public var until: WallTime
        public var content: ScheduledContent

        public init(from: WallTime, until: WallTime, content: ScheduledContent) {
            self.from = from
            self.until = until
            self.content = content
        }
    }

    /// The content at `time` (its second: boundaries fall on whole seconds)
    /// and the next change, searched up to a week past the last date any
    /// entry names (after which the schedule repeats every week, so a week
    /// without a change has none to come).
    public func state(at time: WallTime) -> State {
        let instant = Self.second(of: time)
        let week = 7 * 86_400
        let lastDate = entries.compactMap { $0.dates?.map(\.last.dayNumber).max() }.max()
        let horizon = max(instant, ((lastDate ?? 0) + 2) * 86_400) + week + 86_400
        var content: ScheduledContent?
        var chunk = instant
        // A day first, since a change usually comes within one; then longer spans, up to a week.
        var length = 86_400
        while chunk < horizon {
            let end = min(chunk + length, horizon)
            length = min(length * 2, week)
            let offsets = ZoneOffsets(zone, covering: Self.span(chunk, end))
            for segment in segments(from: chunk, until: end, offsets: offsets) {
                guard let current = content else {
                    content = segment.content
                    continue
                }
                if segment.content != current {
                    let change = WallTime(secondsSinceEpoch: Double(segment.from), utcOffset: offsets.offset(at: segment.from))
                    return State(content: current, nextChange: change)
                }
            }
            chunk = end
        }
        return State(content: content ?? .defaultPlaylist, nextChange: nil)
    }

    /// Consecutive segments exactly covering [`from`, `until`) (whole
    /// seconds, `from` rounded down, `until` up), neighbours with the same
    /// content merged; empty when `until` is not after `from`.
    public func segments(from: WallTime, until: WallTime) -> [Segment] {
        let start = Self.second(of: from)
        let end = Int((until.secondsSinceEpoch).rounded(.up))
        let offsets = ZoneOffsets(zone, covering: Self.span(start, end))
        return segments(from: start, until: end, offsets: offsets).map { segment in
            Segment(from: WallTime(secondsSinceEpoch: Double(segment.from), utcOffset: offsets.offset(at: segment.from)),
                    until: WallTime(secondsSinceEpoch: Double(segment.until), utcOffset: offsets.offset(at: segment.until)),
                    content: segment.content)
        }
    }

    /// Segments of [start, end) in seconds since the epoch, merged; `offsets` must cover `span(start, end)`.
    private func segments(from start: Int, until end: Int, offsets: ZoneOffsets) -> [(from: Int, until: Int, content: ScheduledContent)] {
        guard start < end else { return [] }
        // A window holding an instant starts on the instant's local day, the day before (a night
        // window) or the day after (clocks put back across midnight); a day more before `start`
        // allows for clocks put back across midnight between `start` and the instant.
        let days = offsets.localDay(start) - 2...offsets.localDay(end) + 1
        let windows = entries.map { entry in
            days.filter(entry.selects(dayNumber:)).compactMap { day -> Range<Int>? in
                let local = entry.localWindow(onDay: day)
                let window = offsets.firstInstant(reaching: local.lowerBound)..<offsets.firstInstant(reaching: local.upperBound)
                return window.isEmpty ? nil : window
            }
        }
        var boundaries = Set([start, end])
        for range in windows.joined() {
            for boundary in [range.lowerBound, range.upperBound] where start < boundary && boundary < end { boundaries.insert(boundary) }
        }
        var segments: [(from: Int, until: Int, content: ScheduledContent)] = []
        let sorted = boundaries.sorted()
        for (from, until) in zip(sorted, sorted.dropFirst()) {
            let decider = windows.firstIndex { $0.contains { $0.contains(from) } }
            let content = decider.map { entries[$0].content } ?? .defaultPlaylist
            if let last = segments.last, last.content == content {
                segments[segments.count - 1].until = until
            } else {
                segments.append((from, until, content))
            }
        }
        return segments
    }

    /// Enough offsets for every window that can touch [start, end) (those
    /// of local days from two before to one after, ending up to two days
    /// later) and a day more either side to find first instants in.
    private static func span(_ start: Int, _ end: Int) -> ClosedRange<Int> {
        start - 6 * 86_400...max(start, end) + 6 * 86_400
    }

    private static func second(of time: WallTime) -> Int { Int(time.secondsSinceEpoch.rounded(.down)) }
}
