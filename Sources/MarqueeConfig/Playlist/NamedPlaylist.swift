import MarqueeCore

/// One `[playlists.NAME]` table: a playlist the schedule plays by name.
/// Its `items` are entries as `[playback] playlist` takes them, resolved
/// the same way (`PlaylistResolver`); a setting it leaves out is
/// `[playback]`'s.
public struct NamedPlaylist: Sendable, Equatable {
    /// The table's name, as `[[schedule]] playlist` gives it.
    public var name: String
    public var items: [PlaylistEntry]
    /// nil: `[playback] loop`.
    public var loop: LoopMode?
    /// nil: `[playback] shuffle`.
    public var shuffle: Bool?
    /// nil: `[playback] transition` (a fade lasts `[playback] transition_ms` either way).
    public var transition: Transition?

    public init(name: String, items: [PlaylistEntry]) {
        self.name = name
        self.items = items
    }
}
