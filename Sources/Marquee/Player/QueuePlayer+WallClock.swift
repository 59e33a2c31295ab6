/// Playback anchored to the wall clock (`[sync] mode = "wallclock"`,
/// docs/sync.md): the playlist shows, at wall time t, what `schedule` says
/// is up at t, so players with the same playlist and schedule show the same
/// frame at the same instant. The presenter times each frame to
/// CLOCK_REALTIME (read afresh at every step, so a clock slewed by chrony
/// or PTP is followed smoothly) and, when the picture is further off the
/// schedule than a correction threshold (the start, a clock step, a stall),
/// jumps once to where the schedule is.
extension QueuePlayer {
    /// Follows `schedule`, whose items are the playlist's in order (see
    /// `playlist`); nil: back to the player's own clock from where it is.
    public func followWallClock(_ schedule: WallSchedule?) {
        engine.send(.followWallClock(schedule))
    }
}
