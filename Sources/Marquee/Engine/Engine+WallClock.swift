import MarqueeCore

/// The wall schedule's side shared by the presenter and the audio stage
/// (`QueuePlayer.followWallClock`): where the wall clock is, and when the
/// schedule wants a point of the timeline seen or heard.
extension Engine {
    /// Wall seconds (since 1970) at host time `host`, from a fresh reading of
    /// both clocks: the mapping follows a slew and notices a step at once.
    func wallSeconds(at host: HostTime) -> Double {
        let hostNow = configuration.hostClock.now()
        return configuration.wallClock.now().secondsSinceEpoch + (host - hostNow).secondsDouble
    }

    /// When the wall schedule wants `timeline` of `segment` seen or heard, in
    /// wall seconds, in the loop pass nearest `near`, and its item's place in
    /// the playlist; nil for an item the schedule does not cover.
    func wallDue(of segment: Segment, at timeline: Double, schedule: WallSchedule, near: Double) -> (due: Double, index: Int)? {
        guard let index = playlistIndex(of: segment.item), index < schedule.durations.count else { return nil }
        return (schedule.due(index: index, itemTime: segment.itemSeconds(atTimeline: timeline), near: near), index)
    }
}
