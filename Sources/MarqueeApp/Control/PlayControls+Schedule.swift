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
        target.scheduleSummary.withLock { $0 = { [weak self] in self?.scheduleSummary } }
        follower.start()
    }

    func stopFollowingSchedule() {
        state.withLock { state in
            defer { state.schedule = nil }
            return state.schedule?.follower
        }?.stop()
    }

    /// What the schedule shows, when it next changes and to what, for `status`; nil without a schedule.
    var scheduleSummary: PlaybackStatus.ScheduleSummary? {
        guard let (schedule, clock, _) = state.withLock({ $0.schedule }) else { return nil }
        let now = schedule.state(at: clock.now())
        let next = now.nextChange.map { schedule.state(at: $0).content }
        return .init(showing: "\(state.withLock { $0.scheduled } ?? now.content)", nextChange: now.nextChange?.rfc3339Seconds,
                     next: next.map { "\($0)" })
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
            recorder?.end(reason: .screenOff)
            target.setScreenPower(on: false)
            return
        }
        if previous == .screenOff { target.setScreenPower(on: true) }
        guard content != playing else { return }
        state.withLock { $0.playlistShown = content }
        let shown = applied.showing(content)
        let items = PlaylistLoader(log: log).items(for: shown, configPath: configPath).map(PlayerItem.init)
        // New items' lines carry the new playlist; the one cut short ends as "schedule".
        recorder?.playlist = content.playlistName
        if applied.scheduleOptions.switchAt == .immediate || player.currentItem == nil {
            recorder?.nextEndReason = .schedule
            player.replaceQueue(with: items)
        } else {
            state.withLock { $0.retiring = player.currentItem }
            player.replaceUpcomingItems(with: items)
        }
        if !overrides.loop { target.setLoopMode(shown.playback.loop) }
        watchPlaylist(refresh: items.isEmpty || waitsForFiles)
    }
}

extension PlayControls {
    /// Why a schedule sent over a control channel was not taken.
    enum ScheduleRefusal: Error {
        /// The text is not a valid schedule: every problem at its line:column.
        case invalid([String])
        /// A named playlist's entry is missing, outside the media roots, or of a scheme not streamed.
        case entry(ControlError)
        /// Nowhere is set to keep it, or saving it failed.
        case noStore(ControlError)
        case store(ControlError)
    }

    /// A schedule sent over a control channel (`PUT /schedule`): checked
    /// as a configuration file is, its playlists' entries confined to the
    /// media roots (as again at each load), saved atomically beside the
    /// playlist store, then applied as a reload. Nothing changes when
    /// anything is refused.
    func sendSchedule(_ text: String) -> Result<String, ScheduleRefusal> {
        let document: ScheduleDocument
        do throws(ConfigurationError) {
            document = try ScheduleDocument(text, file: "schedule")
        } catch {
            switch error {
            case .invalid(let errors): return .failure(.invalid(errors.errors.map(\.summary)))
            case .unreadable: return .failure(.invalid(["\(error)"]))
            }
        }
        let applied = state.withLock { $0.applied }
        if case .failure(let error) = MediaRoots(applied.playback.mediaRoots, relativeTo: PlaylistLoader.base(configPath)).confine(document) {
            return .failure(.entry(error))
        }
        guard let store = ScheduleStore(applied.controls.http, configPath: configPath) else {
            return .failure(.noStore(ControlError("no [controls.http] playlist_file (nor $STATE_DIRECTORY) to keep a schedule beside")))
        }
        do throws(ControlError) {
            try store.save(text)
        } catch {
            return .failure(.store(error))
        }
        let summary = "schedule: \(document.entries.count) entries and \(document.playlists.count) playlists, saved in \(store.path)"
        log.info(summary)
        switch reload() {
        case .success(let reloaded): return .success("\(summary); \(reloaded)")
        case .failure(let error): return .success("\(summary); \(error.message)")
        }
    }

    /// The next `hours` of the schedule in force, as `marquee schedule --json` gives it; nil without a schedule.
    func scheduleAhead(hours: Double = 24) -> [Schedule.Segment]? {
        guard let (schedule, clock, _) = state.withLock({ $0.schedule }) else { return nil }
        let now = clock.now()
        return schedule.segments(from: now, until: WallTime(secondsSinceEpoch: now.secondsSinceEpoch + hours * 3600, utcOffset: now.utcOffset))
    }
}
