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
                #expect(segments[index - 1].until == segment.from, "a gap or overlap before \(segment.from.rfc3339Seconds)")
                #expect(segments[index - 1].content != segment.content, "unmerged at \(segment.from.rfc3339Seconds)")
            }
            for minute in stride(from: from, to: until, by: 60) where oracle.content(at: minute) != Self.name(segment.content) {
                Issue.record("\(Self.time(minute).rfc3339): segment says \(segment.content), the rules \(oracle.content(at: minute))")
                break
            }
            kinds.insert(Self.name(segment.content))
        }
        // Every entry decides somewhere this week (the other change's entries in the other week).
        #expect(kinds.count >= 9, "\(kinds.sorted())")
        // Each wrong minute counts; the first ten are told.
        var wrong = 0
        func report(_ message: String) {
            wrong += 1
            if wrong <= 10 { Issue.record(Comment(rawValue: message)) }
        }
        for minute in stride(from: start, to: end, by: 60) {
            let state = schedule.state(at: Self.time(minute))
            let expected = oracle.content(at: minute)
            guard Self.name(state.content) == expected else {
                report("\(Self.time(minute).rfc3339): state says \(state.content), the rules \(expected)")
                continue
            }
            let next = try #require(stride(from: minute + 60, to: end + 9 * 86_400, by: 60).first { oracle.content(at: $0) != expected })
            if state.nextChange?.secondsSinceEpoch != Double(next) {
                report("\(Self.time(minute).rfc3339): next change \(state.nextChange?.rfc3339 ?? "none"), the rules \(Self.time(next).rfc3339)")
            }
        }
        #expect(wrong == 0, "\(wrong) minutes of \(week) disagree with the rules")
    }

    /// Boundaries worked out by hand from the zones' rules (Berlin: CET
    /// +01:00, CEST +02:00 from 01:00Z on 29 March to 01:00Z on 25 October;
    /// New York: EST -05:00, EDT -04:00 from 07:00Z on 8 March to 06:00Z on
    /// 1 November), each as the state just before and at the instant.
    @Test(arguments: [
        // Berlin, clocks forward at 02:00 CET: 01:00 CET is 00:00Z; 02:30 is skipped, so the
        // window from 02:30 begins, and the one until 02:30 ends, at the jump; 04:00 CEST is 02:00Z.
        // Before it, Saturday's night window still runs, into a Sunday that its `days` do not name.
        ("Europe/Berlin", "2026-03-29T00:00:00Z", "night", "skipend"),
        ("Europe/Berlin", "2026-03-29T01:00:00Z", "skipend", "skipstart"),
        ("Europe/Berlin", "2026-03-29T02:00:00Z", "skipstart", "off"),
        // 06:00 CEST, the end of the screen-off window, is 04:00Z.
        ("Europe/Berlin", "2026-03-29T04:00:00Z", "off", "default"),
        // Clocks back at 03:00 CEST: 00:00 CEST is 22:00Z the day before; 02:30 comes first at
        // 00:30Z (CEST), and the window from it runs through the repeated hour to 05:00 CET, 04:00Z.
        ("Europe/Berlin", "2026-10-24T22:00:00Z", "night", "repeatend"),
        ("Europe/Berlin", "2026-10-25T00:30:00Z", "repeatend", "repeatstart"),
        ("Europe/Berlin", "2026-10-25T04:00:00Z", "repeatstart", "off"),
        // 06:00 CET is 05:00Z.
        ("Europe/Berlin", "2026-10-25T05:00:00Z", "off", "default"),
        // Friday's night window ends at 01:30 CET on Saturday, 00:30Z, where the screen goes off.
        ("Europe/Berlin", "2026-03-28T00:30:00Z", "night", "off"),
        // New York, forward at 02:00 EST (07:00Z): 01:00 EST is 06:00Z.
        ("America/New_York", "2026-03-08T06:00:00Z", "night", "skipend"),
        ("America/New_York", "2026-03-08T07:00:00Z", "skipend", "skipstart"),
        // 04:00 EDT is 08:00Z.
        ("America/New_York", "2026-03-08T08:00:00Z", "skipstart", "off"),
        // Back at 02:00 EDT (06:00Z): 00:00 EDT is 04:00Z, 01:30 EDT (first) 05:30Z, 05:00 EST 10:00Z.
        ("America/New_York", "2026-11-01T04:00:00Z", "night", "repeatend"),
        ("America/New_York", "2026-11-01T05:30:00Z", "repeatend", "repeatstart"),
        ("America/New_York", "2026-11-01T10:00:00Z", "repeatstart", "off"),
        // The campaign, Friday 30 October 12:00 EDT, 16:00Z.
        ("America/New_York", "2026-10-30T16:00:00Z", "weekday", "campaign"),
    ])
    func boundariesFallWhereWorkedOutByHand(zone: String, at instant: String, before: String, after: String) throws {
        let week = try #require(Self.weeks.first { $0.zone == zone })
        let schedule = try Self.schedule(Self.rules(week), zone: zone)
        let boundary = try Self.instant(instant)
        let earlier = schedule.state(at: Self.time(boundary - 1))
        #expect(Self.name(earlier.content) == before)
        #expect(earlier.nextChange?.secondsSinceEpoch == Double(boundary), "\(earlier.nextChange?.rfc3339 ?? "none")")
        #expect(Self.name(schedule.state(at: Self.time(boundary)).content) == after)
    }

    /// A window that starts in the skipped hour has its start at the jump,
    /// and the segments print it in the new offset.
    @Test func aSegmentFromTheSkippedHourStartsAtTheJumpInTheNewOffset() throws {
        let zone = try #require(LocalZone(named: "Europe/Berlin"))
        let entry = ScheduleEntry(.screenOff, times: DailyTimes(from: try #require(TimeOfDay("02:30")), until: try #require(TimeOfDay("03:30"))))
        let schedule = Schedule(entries: [entry], zone: zone)
        let segments = schedule.segments(from: try #require(WallTime(rfc3339: "2026-03-29T00:00:00+01:00")),
                                         until: try #require(WallTime(rfc3339: "2026-03-29T12:00:00+02:00")))
        #expect(segments.map { "\($0.from.rfc3339Seconds) \($0.content)" } == [
            "2026-03-29T00:00:00+01:00 default", "2026-03-29T03:00:00+02:00 screen off", "2026-03-29T03:30:00+02:00 default",
        ])
        #expect(segments.last?.until.rfc3339Seconds == "2026-03-29T12:00:00+02:00")
    }

    /// Nothing scheduled, or only dates long past: the default playlist, never changing.
    @Test func withoutWindowsAheadNothingChanges() throws {
        let zone = try #require(LocalZone(named: "America/New_York"))
        let now = Self.time(try Self.instant("2026-06-01T12:00:00Z"))
        #expect(Schedule(entries: [], zone: zone).state(at: now) == Schedule.State(content: .defaultPlaylist, nextChange: nil))
        let past = ScheduleEntry(.playlist("x"), dates: [DateRange(try #require(CalendarDate("2025-12-24")))])
        #expect(Schedule(entries: [past], zone: zone).state(at: now) == Schedule.State(content: .defaultPlaylist, nextChange: nil))
        // A date far ahead is still found.
        let ahead = ScheduleEntry(.playlist("x"), dates: [DateRange(try #require(CalendarDate("2027-12-24")))])
        let state = Schedule(entries: [ahead], zone: zone).state(at: now)
        #expect(state.nextChange?.rfc3339Seconds == "2027-12-24T00:00:00-05:00")
    }
}
