/// What the schedule asks for at a moment.
public enum ScheduledContent: Sendable, Hashable, CustomStringConvertible {
    /// `[playback] playlist`, screen on: where no entry's window holds the moment.
    case defaultPlaylist
    /// A `[playlists.NAME]` playlist, screen on.
    case playlist(String)
    /// The screen off (no picture, no sound).
    case screenOff

    public var isScreenOn: Bool { self != .screenOff }

    /// The named playlist; nil for the default playlist and with the screen off.
    public var playlistName: String? {
        if case .playlist(let name) = self { name } else { nil }
    }

    /// "default", "playlist NAME", "screen off".
    public var description: String {
        switch self {
        case .defaultPlaylist: "default"
        case .playlist(let name): "playlist \(name)"
        case .screenOff: "screen off"
        }
    }
}
