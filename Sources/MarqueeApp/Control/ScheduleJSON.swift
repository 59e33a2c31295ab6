import MarqueeConfig
import MarqueeCore

/// The schedule's segments as `marquee schedule --json` prints them and
/// `GET /schedule` answers.
public enum ScheduleJSON {
    /// `[{"from": RFC3339, "until": RFC3339, "screen": "on"|"off", "playlist": NAME or null}, ...]`, a segment a line.
    public static func text(_ segments: [Schedule.Segment]) -> String {
        let lines = segments.map { segment in
            "{\"from\": \(JSONString.quoted(segment.from.rfc3339Seconds)), \"until\": \(JSONString.quoted(segment.until.rfc3339Seconds)), "
                + "\"screen\": \"\(segment.content.isScreenOn ? "on" : "off")\", "
                + "\"playlist\": \(segment.content.playlistName.map(JSONString.quoted) ?? "null")}"
        }
        return "[\n" + lines.map { "  \($0)" }.joined(separator: ",\n") + "\n]"
    }
}
