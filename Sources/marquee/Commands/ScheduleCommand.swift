import Marquee
import MarqueeApp
import MarqueeConfig

/// `marquee schedule CONFIG [--from TIME] [--until TIME] [--json]`: what the
/// file's `[[schedule]]` plays when, in the local zone (TZ, else
/// /etc/localtime). A table of every change, or with `--json` the segments
/// exactly covering [from, until). A file with problems is reported as
/// `check-config` reports it, with exit status 1.
struct ScheduleCommand: Subcommand {
    static let name = "schedule"
    static let operands = "CONFIG"
    static let options = [
        OptionSpec("--from", "TIME", default: "now", .input, "start of the preview, RFC 3339 with an offset (2026-03-29T00:00:00+01:00)"),
        OptionSpec("--until", "TIME", default: "7 days after --from", .input, "end of the preview (not included), RFC 3339 with an offset"),
        OptionSpec("--json", .diagnostics, "one JSON array of segments covering the preview instead of a table of changes"),
    ]
    static let summary = "Preview what the configuration's schedule plays when, in local time."

    let path: String
    let from: WallTime
    let until: WallTime
    let json: Bool

    init(parsing parser: inout ArgumentParser) throws {
        json = parser.flag("--json")
        from = try Self.time(parser.option("--from"), "--from") ?? SystemWallClock().now()
        until = try Self.time(parser.option("--until"), "--until")
            ?? WallTime(secondsSinceEpoch: from.secondsSinceEpoch + 7 * 86_400, utcOffset: from.utcOffset)
        let files = try parser.positional()
        guard files.count == 1 else { throw UsageError("schedule needs exactly one configuration file") }
        path = files[0]
        guard until > from else { throw UsageError("--until must be after --from") }
    }

    private static func time(_ text: String?, _ option: String) throws -> WallTime? {
        guard let text else { return nil }
        guard let time = WallTime(rfc3339: text) else {
            throw UsageError("\(option): '\(text)' is not an RFC 3339 time with an offset, like 2026-03-29T00:00:00+01:00")
        }
        return time
    }

    func run() async -> Int32 {
        guard let configuration = ConfigurationCheck.load(path) else { return 1 }
        let segments = Schedule(entries: configuration.schedule).segments(from: from, until: until)
        print(json ? ScheduleJSON.text(segments) : Self.table(segments))
        return 0
    }

    /// One line per change, the first at --from: local time with its offset, screen, playlist.
    static func table(_ segments: [Schedule.Segment]) -> String {
        let rows = [["TIME", "SCREEN", "PLAYLIST"]] + segments.map { segment in
            let playlist = segment.content == .defaultPlaylist ? "(default)" : segment.content.playlistName ?? "-"
            return [segment.from.rfc3339Seconds, segment.content.isScreenOn ? "on" : "off", playlist]
        }
        let width = rows.map { $0[0].count }.max() ?? 0
        return rows.map { row in
            row[0].padded(to: width + 2) + row[1].padded(to: 8) + row[2]
        }.joined(separator: "\n")
    }
}
