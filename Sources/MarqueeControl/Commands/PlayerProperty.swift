/// A property `get NAME` reads from a running player, by name.
public enum PlayerProperty: String, Sendable, CaseIterable {
    /// Playing, paused, finished or failed.
    case state
    /// Seconds into the current item.
    case time
    /// Seconds; null when unknown (not opened yet, live streams).
    case duration
    /// The current item: its position from 1 and its source; null when none.
    case item
    /// Every item in order, the current one marked.
    case playlist
    case rate
    case volume
    case muted
    case loop
    /// "on", or "off" while the display is switched off (`screen off`).
    case screen
    /// The playback statistics `--stats` writes (frames, drops, A-V offset, seams, stalls).
    case stats
    /// The display and its mode ("HDMI-A-1 1920x1080@60"), or the output in use.
    case display
    /// The video decoder of the current item ("vaapi", "software").
    case decoder
    /// Everything `status` answers, as one object.
    case status

    /// Every name, as written.
    public static var names: [String] { allCases.map(\.rawValue) }
}
