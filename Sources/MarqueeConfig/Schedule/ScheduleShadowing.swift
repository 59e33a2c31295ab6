/// Which entries can never decide: what `marquee check-config` warns of.
/// The test is sound but not complete: an entry is reported only when one
/// earlier entry by itself provably holds every window it has, in any zone;
/// one hidden only by several earlier entries together is not found.
extension ScheduleEntry {
    /// Whether every window `later` can have lies within a window of this
    /// entry, in any zone and across any change of offset. True when
    ///
    /// - this entry selects every day (no `dates`, `days` absent or all
    ///   seven) and its windows meet end to start (no times, or `from` ==
    ///   `until`): it holds every instant; or
    /// - it selects every day `later` selects (its `days` include all of
    ///   `later`'s, and it has no `dates` or its dates include all of
    ///   `later`'s), and on each such day its local window includes
    ///   `later`'s: no times against a day window or no times; a day window
    ///   against a day window inside it; a night window against a day window
    ///   starting at or after its `from`, or a night window starting at or
    ///   after its `from` and ending at or before its `until`.
    ///
    /// Local containment is enough because a window's instants are the
    /// first instants its local start and end are reached, which never come
    /// in the other order for a later local time.
    public func covers(_ later: ScheduleEntry) -> Bool {
        if selectsEveryDay, times.map({ $0.from == $0.until }) ?? true { return true }
        return selectsEveryDay(of: later) && localWindowCovers(later.times)
    }

    private var selectsEveryDay: Bool { dates == nil && (days?.count ?? 7) == 7 }

    private func selectsEveryDay(of later: ScheduleEntry) -> Bool {
        let everyDay = Set(Weekday.allCases)
        guard (days ?? everyDay).isSuperset(of: later.days ?? everyDay) else { return false }
        guard let dates else { return true }
        guard let laterDates = later.dates else { return false }
        let merged = Self.merged(dates)
        return laterDates.allSatisfy { range in merged.contains { $0.contains(range) } }
    }

    private func localWindowCovers(_ later: DailyTimes?) -> Bool {
        guard let times else { return later.map { !$0.isNight } ?? true }
        guard let later else { return false }
        switch (times.isNight, later.isNight) {
        case (false, false): return times.from <= later.from && later.until <= times.until
        case (true, false): return times.from <= later.from
        case (true, true): return times.from <= later.from && later.until <= times.until
        case (false, true): return false
        }
    }

    /// Overlapping and touching ranges joined, in date order.
    private static func merged(_ ranges: [DateRange]) -> [DateRange] {
        var merged: [DateRange] = []
        for range in ranges.sorted(by: { $0.first < $1.first }) {
            if let last = merged.last, range.first.dayNumber <= last.last.dayNumber + 1 {
                merged[merged.count - 1] = DateRange(first: last.first, last: max(last.last, range.last))!
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}

extension Schedule {
    /// Each entry that can never decide because an earlier one covers it
    /// (`ScheduleEntry.covers`), with the first such earlier entry; indices into `entries`.
    public static func shadowedEntries(_ entries: [ScheduleEntry]) -> [(entry: Int, coveredBy: Int)] {
        entries.indices.compactMap { later in
            entries[..<later].firstIndex { $0.covers(entries[later]) }.map { (later, $0) }
        }
    }
}
