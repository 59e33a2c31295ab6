import Foundation
import MarqueeConfig

/// A `[[schedule]]` entry as the tests write it, turned into TOML for the
/// real parser and applied directly by `ScheduleOracle`.
struct ScheduleRule {
    /// A playlist name, or "off" for `screen = "off"`.
    var what: String
    var days: [String]?
    var dates: [String]?
    var from: String?
    var until: String?

    init(_ what: String, days: [String]? = nil, dates: [String]? = nil, from: String? = nil, until: String? = nil) {
        (self.what, self.days, self.dates, self.from, self.until) = (what, days, dates, from, until)
    }

    /// `[playlists.NAME]` for each name, then the `[[schedule]]` entries.
    static func toml(_ rules: [ScheduleRule]) -> String {
        var names: [String] = []
        for rule in rules where rule.what != "off" && !names.contains(rule.what) { names.append(rule.what) }
        var lines = names.flatMap { ["[playlists.\($0)]", "items = [\"\($0).mp4\"]", ""] }
        func list(_ values: [String]) -> String { "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        for rule in rules {
            lines.append("[[schedule]]")
            lines.append(rule.what == "off" ? "screen = \"off\"" : "playlist = \"\(rule.what)\"")
            if let days = rule.days { lines.append("days = \(list(days))") }
            if let dates = rule.dates { lines.append("dates = \(list(dates))") }
            if let from = rule.from { lines.append("from = \"\(from)\"") }
            if let until = rule.until { lines.append("until = \"\(until)\"") }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

/// The schedule's rules applied the plain way, independent of the
/// implementation's offset bisection: walk the clock minute by minute with
/// localtime_r in the zone, keep the latest local wall-clock time reached so
/// far, and say a window holds a minute when the local time has reached its
/// start and not yet its end (docs/schedule.md). For zones whose offsets
/// and changes fall on whole minutes (Berlin's and New York's do).
struct ScheduleOracle {
    /// "off", a playlist name or "default", for each minute from `start`.
    let minutes: [String]
    let start: Int

    /// - Parameters:
    ///   - start, end: seconds since the epoch, whole minutes.
    ///   - zone: the TZ value; set while walking and put back after (call it where nothing else reads the zone).
    init(_ rules: [ScheduleRule], zone: String, start: Int, end: Int) {
        self.start = start
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        // Three days of history first, so "reached so far" has seen every window that can still be open.
        var latest = Int.min
        var minutes: [String] = []
        for t in stride(from: start - 3 * 86_400, to: end, by: 60) {
            var time = time_t(t)
            var local = tm()
            guard localtime_r(&time, &local) != nil else { fatalError("localtime_r \(t)") }
            // The broken-down local time read as if it were UTC: seconds since 1970-01-01 00:00 local.
            latest = max(latest, Int(timegm(&local)))
            if t >= start { minutes.append(Self.decide(rules, latest: latest)) }
        }
        self.minutes = minutes
    }

    func content(at t: Int) -> String { minutes[(t - start) / 60] }

    private static func decide(_ rules: [ScheduleRule], latest: Int) -> String {
        let today = Int((Double(latest) / 86_400).rounded(.down))
        for rule in rules {
            for day in today - 2...today where selects(rule, day: day) {
                let midnight = day * 86_400
                var (begin, end) = (midnight, midnight + 86_400)
                if let from = rule.from.map(seconds), let until = rule.until.map(seconds) {
                    begin = midnight + from
                    end = (until <= from ? midnight + 86_400 : midnight) + until
                }
                if begin <= latest && latest < end { return rule.what }
            }
        }
        return "default"
    }

    private static func selects(_ rule: ScheduleRule, day: Int) -> Bool {
        var time = time_t(day * 86_400)
        var date = tm()
        guard gmtime_r(&time, &date) != nil else { fatalError("gmtime_r \(day)") }
        let weekday = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][Int(date.tm_wday)]
        let iso = String(format: "%04d-%02d-%02d", date.tm_year + 1900, date.tm_mon + 1, date.tm_mday)
        let onDay = rule.days?.contains(weekday) ?? true
        // ISO dates compare as text.
        let onDate = rule.dates?.contains { spec in
            let ends = spec.components(separatedBy: "..")
            return ends[0] <= iso && iso <= ends[ends.count - 1]
        } ?? true
        return onDay && onDate
    }

    private static func seconds(_ text: String) -> Int {
        let parts = text.split(separator: ":").map { Int($0)! }
        return parts[0] * 3600 + parts[1] * 60
    }
}
