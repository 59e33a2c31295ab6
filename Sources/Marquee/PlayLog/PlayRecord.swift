import FoundationEssentials
import MarqueeCore

/// Why a showing of an item ended, as the play log's `ended` field says it.
public enum PlayEnd: String, Sendable, Codable {
    /// It played to its end (a loop pass ended; a pass cut short by a
    /// decode error is `error`).
    case end
    /// The schedule switched to another playlist.
    case schedule
    /// A control moved on from it (next, prev, goto, a changed playlist),
    /// or an app changed the item without saying why.
    case command
    /// It failed to play to its end (unreadable data, too many decode errors).
    case error
    /// The screen was turned off.
    case screenOff = "screen-off"
    /// The process stopped while it was on screen.
    case shutdown
}

/// One line of the play log ("proof of play"): one showing of one item.
/// Written as one JSON object in this field order:
/// `{"item":"/srv/a.mp4","playlist":null,"display":"HDMI-A-1 ...","start":"2026-12-04T18:03:07.412+01:00",
/// "end":"2026-12-04T18:03:17.415+01:00","seconds":10.003,"ended":"end"}`.
public struct PlayRecord: Sendable, Equatable, Codable {
    /// The item's path or URL, as it was given.
    public var item: String
    /// The named playlist it played from; nil for the default one.
    public var playlist: String?
    /// The display it was shown on, as `get display` reports it.
    public var display: String
    /// When its first frame was on screen, and when it left: RFC 3339 in
    /// local time with the UTC offset, to the millisecond.
    public var start: String
    public var end: String
    /// How long it was on screen (pauses included), measured on the
    /// monotonic clock, so a clock step in between does not change it; to
    /// the millisecond.
    public var seconds: Double
    public var ended: PlayEnd

    public init(item: String, playlist: String?, display: String, start: String, end: String, seconds: Double, ended: PlayEnd) {
        self.item = item
        self.playlist = playlist
        self.display = display
        self.start = start
        self.end = end
        self.seconds = seconds
        self.ended = ended
    }

    /// The record as one line of JSON, without the line break.
    public var line: String {
        "{\"item\":\(JSONString.quoted(item)),\"playlist\":\(playlist.map(JSONString.quoted) ?? "null"),"
            + "\"display\":\(JSONString.quoted(display)),\"start\":\(JSONString.quoted(start)),\"end\":\(JSONString.quoted(end)),"
            + "\"seconds\":\(String(seconds, places: 3)),\"ended\":\(JSONString.quoted(ended.rawValue))}"
    }

    /// A line of the log read back; nil for one that is not a record.
    public init?(line: some StringProtocol) {
        guard let record = try? JSONDecoder().decode(PlayRecord.self, from: Data(line.utf8)) else { return nil }
        self = record
    }
}
