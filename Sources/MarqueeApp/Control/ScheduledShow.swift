import MarqueeConfig

extension MarqueeConfiguration {
    /// The configuration as it plays while the schedule shows `content`: a
    /// named playlist's items, loop and shuffle in place of `[playback]`'s
    /// (what it leaves unset stays `[playback]`'s); the default playlist,
    /// or a screen that is off, leave it as it is.
    /// In a layout, the default playlist is the main layer's content where it gives one.
    public func showing(_ content: ScheduledContent) -> MarqueeConfiguration {
        if content == .defaultPlaylist, let main = mainLayer {
            switch main.content {
            case .playlist(let name) where name != "": return showing(.playlist(name))
            case .items(let entries) where !entries.isEmpty:
                var shown = self
                shown.playback.playlist = entries
                return shown
            default: return self
            }
        }
        guard let name = content.playlistName, let named = playlist(named: name) else { return self }
        var shown = self
        shown.playback.playlist = named.items
        if let loop = named.loop { shown.playback.loop = loop }
        if let shuffle = named.shuffle { shown.playback.shuffle = shuffle }
        return shown
    }

    /// The schedule in the system's zone; nil without `[[schedule]]` entries.
    var followedSchedule: Schedule? { schedule.isEmpty ? nil : Schedule(entries: schedule) }

    /// What plays while the clock is not known to be set.
    var beforeClockSet: ScheduledContent { scheduleOptions.beforeClockSet.map { .playlist($0) } ?? .defaultPlaylist }
}

extension MarqueeConfiguration {
    /// The playlist the schedule shows as the player starts: the one whose
    /// items it is made with. A screen scheduled off starts on the default
    /// playlist, which the schedule's first reading then turns off.
    public func scheduledAtStart(on clock: ScheduleClock) -> ScheduledContent {
        guard let schedule = followedSchedule else { return .defaultPlaylist }
        let content = clock.synchronisation.isSynchronised ? schedule.state(at: clock.clock.now()).content : beforeClockSet
        return content == .screenOff ? .defaultPlaylist : content
    }
}
