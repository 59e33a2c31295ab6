/// One `[[schedule]]` entry: what plays in its windows, and which windows.
/// It has a window on each local day its `days` and `dates` select (both
/// given: both must match), from `times.from` that day to `times.until`
/// (the next day for a night window), or the whole day without `times`.
/// See docs/schedule.md for when a window begins and ends around daylight
/// saving changes. A value type.
public struct ScheduleEntry: Sendable, Equatable {
    /// What its windows ask for.
    public var action: Action
    /// The weekdays it applies on; nil: every day.
    public var days: Set<Weekday>?
    /// The dates it applies on; nil: any date.
    public var dates: [DateRange]?
    /// Its window within each selected day; nil: the whole day.
    public var times: DailyTimes?
    /// Where the entry is in the file, for messages about it.
    public var location: SourceLocation?

    /// `playlist = "NAME"` or `screen = "off"`.
    public enum Action: Sendable, Hashable {
        case playlist(String)
        case screenOff
    }

    public init(_ action: Action, days: Set<Weekday>? = nil, dates: [DateRange]? = nil, times: DailyTimes? = nil) {
        self.action = action
        self.days = days
        self.dates = dates
        self.times = times
    }

    /// What the schedule says where this entry decides.
    public var content: ScheduledContent {
        switch action {
        case .playlist(let name): .playlist(name)
        case .screenOff: .screenOff
        }
    }

    /// Whether the entry has a window starting on the local day `dayNumber` (days since 1970-01-01).
    public func selects(dayNumber: Int) -> Bool {
        (days?.contains(Weekday(dayNumber: dayNumber)) ?? true) && (dates?.contains { $0.contains(dayNumber: dayNumber) } ?? true)
    }

    /// The local start and end of its window on day `dayNumber`, in local
    /// seconds (seconds since 1970-01-01T00:00 local, as if every day had 24 hours).
    func localWindow(onDay dayNumber: Int) -> Range<Int> {
        let midnight = dayNumber * 86_400
        guard let times else { return midnight..<midnight + 86_400 }
        let end = (times.isNight ? midnight + 86_400 : midnight) + times.until.secondsIntoDay
        return midnight + times.from.secondsIntoDay..<end
    }

    /// Equal settings; where they were written does not count.
    public static func == (a: Self, b: Self) -> Bool {
        (a.action, a.days, a.dates, a.times) == (b.action, b.days, b.dates, b.times)
    }
}

/// `[schedule_options] switch`: when scheduled content takes over from what plays.
public enum ScheduleSwitch: String, Sendable, CaseIterable {
    /// At the boundary, with the transition if any.
    case immediate
    /// When the item on screen ends.
    case itemEnd = "item-end"
}

/// `[schedule_options]`.
public struct ScheduleOptions: Sendable, Equatable {
    public var switchAt = ScheduleSwitch.immediate
    /// The `[playlists.NAME]` played until the clock is known to be set; nil: the default playlist.
    public var beforeClockSet: String?
    /// Follow the schedule from the start, without waiting for the clock to
    /// be synchronised: a board whose real-time clock is kept right without
    /// NTP (`trust_clock`).
    public var trustClock = false

    public init() {}
}
