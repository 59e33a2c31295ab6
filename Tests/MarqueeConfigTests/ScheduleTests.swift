import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

/// The schedule value type against the rules of docs/schedule.md, in two
/// real zones over the weeks of their 2026 daylight saving changes.
/// Serialized: `ScheduleOracle` sets TZ while it walks, and the named
/// zones set it while they are read.
@Suite(.serialized) struct ScheduleTests {
    /// A zone and the week (Monday to Monday, local) around one of its changes.
    struct ZoneWeek: Sendable, CustomStringConvertible {
        let zone: String
        /// Local midnight starting the Monday and the Monday after, RFC 3339.
        let from: String
        let until: String
        /// The day clocks go forward (02:00 -> 03:00 in both zones) and back.
        let spring: String
        let fall: String
        /// A time inside the hour that is repeated on `fall`.
        let repeated: String

        var description: String { "\(zone) \(from)" }
    }

    static let berlin = (zone: "Europe/Berlin", spring: "2026-03-29", fall: "2026-10-25", repeated: "02:30")
    static let newYork = (zone: "America/New_York", spring: "2026-03-08", fall: "2026-11-01", repeated: "01:30")

    static let weeks = [
        ZoneWeek(zone: berlin.zone, from: "2026-03-23T00:00:00+01:00", until: "2026-03-30T00:00:00+02:00",
                 spring: berlin.spring, fall: berlin.fall, repeated: berlin.repeated),
        ZoneWeek(zone: berlin.zone, from: "2026-10-19T00:00:00+02:00", until: "2026-10-26T00:00:00+01:00",
                 spring: berlin.spring, fall: berlin.fall, repeated: berlin.repeated),
        ZoneWeek(zone: newYork.zone, from: "2026-03-02T00:00:00-05:00", until: "2026-03-09T00:00:00-04:00",
                 spring: newYork.spring, fall: newYork.fall, repeated: newYork.repeated),
        ZoneWeek(zone: newYork.zone, from: "2026-10-26T00:00:00-04:00", until: "2026-11-02T00:00:00-05:00",
                 spring: newYork.spring, fall: newYork.fall, repeated: newYork.repeated),
    ]

    /// Every kind of entry, earliest first where one should win: windows
    /// that start and end inside the skipped hour and the repeated hour
    /// (dated to the day of the change so they decide there), a dated
    /// campaign, nights over midnight, a screen-off window across the
    /// changes, weekdays, weekends, whole dated days and a 24-hour window.
    static func rules(_ week: ZoneWeek) -> [ScheduleRule] {
        [
            ScheduleRule("skipstart", dates: [week.spring], from: "02:30", until: "04:00"),
            ScheduleRule("skipend", dates: [week.spring], from: "01:00", until: "02:30"),
            ScheduleRule("repeatstart", dates: [week.fall], from: week.repeated, until: "05:00"),
            ScheduleRule("repeatend", dates: [week.fall], from: "00:00", until: week.repeated),
            ScheduleRule("campaign", dates: ["2026-03-25..2026-03-27", "2026-10-21..2026-10-22", "2026-03-04", "2026-10-28..2026-10-30"],
                         from: "12:00", until: "14:00"),
            ScheduleRule("night", days: ["fri", "sat"], from: "22:00", until: "01:30"),
            ScheduleRule("off", from: "01:30", until: "06:00"),
            ScheduleRule("weekday", days: ["mon", "tue", "wed", "thu", "fri"], from: "07:00", until: "19:00"),
            ScheduleRule("holiday", dates: ["2026-03-24", "2026-10-20", "2026-03-03", "2026-10-27"]),
            ScheduleRule("weekend", days: ["sat", "sun"], from: "09:00", until: "21:00"),
            ScheduleRule("latenight", days: ["sun"], from: "23:00", until: "23:00"),
        ]
    }

    static func schedule(_ rules: [ScheduleRule], zone: String) throws -> Schedule {
        let configuration = try MarqueeConfiguration.parse(ScheduleRule.toml(rules))
        return Schedule(entries: configuration.schedule, zone: try #require(LocalZone(named: zone)))
    }

    static func instant(_ text: String) throws -> Int {
        Int(try #require(WallTime(rfc3339: text)).secondsSinceEpoch)
    }

    static func name(_ content: ScheduledContent) -> String {
        switch content {
        case .defaultPlaylist: "default"
        case .playlist(let name): name
        case .screenOff: "off"
        }
    }

    static func time(_ seconds: Int) -> WallTime { WallTime(secondsSinceEpoch: Double(seconds), utcOffset: 0) }

    /// Must-show 1: the merged segments of the week and the state (with the
    /// next change) at every minute of it agree with the oracle.
    @Test(arguments: weeks)
    func everyMinuteOfTheWeekFollowsTheRules(week: ZoneWeek) throws {
        let rules = Self.rules(week)
        let schedule = try Self.schedule(rules, zone: week.zone)
        let (start, end) = (try Self.instant(week.from), try Self.instant(week.until))
        // Nine days past the end, so the next change after every minute of the week is in it.
        let oracle = ScheduleOracle(rules, zone: week.zone, start: start, end: end + 9 * 86_400)
        let segments = schedule.segments(from: Self.time(start), until: Self.time(end))
        #expect(segments.first?.from.secondsSinceEpoch == Double(start))
        #expect(segments.last?.until.secondsSinceEpoch == Double(end))
        var kinds = Set<String>()
        for (index, segment) in segments.enumerated() {
            let (from, until) = (Int(segment.from.secondsSinceEpoch), Int(segment.until.secondsSinceEpoch))
            #expect(from < until && from % 60 == 0 && until % 60 == 0, "\(segment)")
            if index > 0 {
                #expect(segments[index - 1].until == segment.from, "a gap or overlap before \(segment.from.rfc3339)")
                #expect(segments[index - 1].content != segment.content, "unmerged at \(segment.from.rfc3339)")
            }
            for minute in stride(from: from, to: until, by: 60) where oracle.content(at: minute) != Self.name(segment.content) {
                Issue.record("\(Self.time(minute).rfc3339): segment says \(segment.content), the rules \(oracle.content(at: minute))")
                break
            }
            kinds.insert(Self.name(segment.content))
        }
        // Every entry decides somewhere this week (the other change's entries in the other week).
        #expect(kinds.count >= 9, "\(kinds.sorted())")
        for minute in stride(from: start, to: end, by: 60) {
            let state = schedule.state(at: Self.time(minute))
            let expected = oracle.content(at: minute)
            guard Self.name(state.content) == expected else {
                Issue.record("\(Self.time(minute).rfc3339): state says \(state.content), the rules \(expected)")
                continue
            }
            let next = try #require(stride(from: minute + 60, to: end + 9 * 86_400, by: 60).first { oracle.content(at: $0) != expected })
            if state.nextChange?.secondsSinceEpoch != Double(next) {
                Issue.record("\(Self.time(minute).rfc3339): next change \(state.nextChange?.rfc3339 ?? "none"), the rules \(Self.time(next).rfc3339)")
            }
        }
    }
}
