import Marquee
import MarqueeConfig
import MarqueeControl
import MarqueeCore

/// Following `[[schedule]]` while playing (issue 36): the playlist the
/// schedule names at each boundary, at once or when the item on screen
/// ends (`[schedule_options] switch`), and again at once when the clock is
/// set. The command line's own inputs are never scheduled.
extension PlayControls {
    /// Starts following the schedule of the configuration in force, in place of any earlier one.
    func followSchedule() {
        stopFollowingSchedule()
        let configuration = state.withLock { $0.applied }
        guard !overrides.playlist, let schedule = configuration.followedSchedule else { return }
        let clock = ScheduleClock.system(trusted: configuration.scheduleOptions.trustClock)
        let alarm: any WallClockAlarm
        do {
            alarm = try clock.alarm()
        } catch {
            log.error("schedule: \(error); the schedule is not followed, [playback] playlist plays")
            return
        }
        let follower = ScheduleFollower<ScheduledContent>(
            clock: clock.clock, alarm: alarm, synchronisation: clock.synchronisation, beforeClockSet: configuration.beforeClockSet,
            read: { time in
                let state = schedule.state(at: time)
                return .init(content: state.content, nextChange: state.nextChange)
            },
            apply: { [weak self] content, cause in self?.show(content, cause: cause) },
            failed: { [log] error in log.error("schedule: \(error); the schedule is no longer followed") })
        state.withLock { $0.schedule = (schedule, clock.clock, follower) }
        follower.start()
    }

    func stopFollowingSchedule() {
        state.withLock { state in
            defer { state.schedule = nil }
            return state.schedule?.follower
        }?.stop()
    }

    /// What the schedule says now and when that changes, for `status`; nil without a schedule.
    var scheduleStatus: (content: ScheduledContent, nextChange: WallTime?)? {
        guard let (schedule, clock, _) = state.withLock({ $0.schedule }) else { return nil }
        let now = schedule.state(at: clock.now())
        return (state.withLock { $0.scheduled } ?? now.content, now.nextChange)
    }

    /// Puts what the schedule says on screen: a playlist at once (a cut, as
    /// `next` is) or after the item on screen (`item-end`), or the screen
    /// off (and on again: the playlist it showed goes on where it was).
    /// Nothing changes for the playlist on screen already (the start, a
    /// reload that kept it).
    private func show(_ content: ScheduledContent, cause: ScheduleFollower<ScheduledContent>.Cause) {
        let (applied, previous, playing) = state.withLock { state in
            defer { state.scheduled = content }
            return (state.applied, state.scheduled, state.playlistShown)
        }
        guard content != previous else { return }
        if previous != nil || content != playing { log.info("schedule: \(content) (\(cause.rawValue))") }
        defer { emit(ControlEvent(.schedule, fields: ["content": .string("\(content)"), "cause": .string(cause.rawValue)])) }
        if content == .screenOff {
            target.setScreenPower(on: false)
            return
        }
        if previous == .screenOff { target.setScreenPower(on: true) }
        guard content != playing else { return }
        state.withLock { $0.playlistShown = content }
        let shown = applied.showing(content)
        let items = PlaylistLoader(log: log).items(for: shown, configPath: configPath).map(PlayerItem.init)
        if applied.scheduleOptions.switchAt == .immediate || player.currentItem == nil {
            player.replaceQueue(with: items)
        } else {
            state.withLock { $0.retiring = player.currentItem }
            player.replaceUpcomingItems(with: items)
        }
        if !overrides.loop { target.setLoopMode(shown.playback.loop) }
        watchPlaylist(refresh: items.isEmpty || waitsForFiles)
    }
}
