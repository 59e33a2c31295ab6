import FoundationEssentials
import Marquee
import MarqueeConfig
import MarqueeControl

/// Reading the configuration file again while playing (SIGHUP, `reload`).
extension PlayControls {
    /// Reads the configuration file again and applies what can change while
    /// playing; a file with errors changes nothing.
    func reload() -> Result<String, ControlError> {
        guard let configPath else { return .failure(ControlError("reload: no configuration file (start with --config FILE)")) }
        service?.reloading()
        defer { service?.reloaded() }
        var fresh: MarqueeConfiguration
        do {
            fresh = try MarqueeConfiguration.load(path: configPath, validateAction: ControlCommand.validate)
            PlaylistStore.applySaved(to: &fresh, configPath: configPath, log: log)
            ScheduleStore.applySaved(to: &fresh, configPath: configPath, log: log)
        } catch {
            // The reply is one line; the quoted lines with carets go to the log.
            let head = "reload: \(configPath) has \(error.count) problem\(error.count == 1 ? "" : "s"), keeping the previous configuration"
            log.error("\(head):\n\(error)")
            let summaries = switch error {
            case .invalid(let errors): errors.errors.map(\.summary)
            case .unreadable: ["\(error)"]
            }
            return .failure(ControlError("\(head): " + summaries.joined(separator: "; ")))
        }
        let (old, scheduled) = state.withLock { ($0.applied, $0.playlistShown) }
        var changed: [String] = []
        var applied = fresh
        var reloadedPlaylist: [PlaylistResolver.Item]?
        let (shown, wasShown) = (fresh.showing(scheduled).playback, old.showing(scheduled).playback)
        let playlistChanged = !overrides.playlist && (shown.playlist != wasShown.playlist || shown.shuffle != wasShown.shuffle)
        if playlistChanged, fresh.sync.mode == .wallclock {
            // A wall schedule is the whole loop in order: the new list takes its place at once.
            let items = PlaylistLoader(log: log).items(for: fresh.showing(scheduled), configPath: configPath)
            followWallClock(fresh.sync, replacing: items.map(PlayerItem.init))
            changed.append("playlist (\(items.count) items, on the wall schedule now)")
            reloadedPlaylist = items
        } else if playlistChanged {
            let items = replaceUpcoming(with: fresh.showing(scheduled))
            changed.append("playlist (\(items.count) items, from the next item)")
            reloadedPlaylist = items
            if old.sync.mode == .wallclock { player.followWallClock(nil) }
        } else {
            applied.playback.playlist = old.playback.playlist
            applied.playback.shuffle = old.playback.shuffle
        }
        if overrides.loop { applied.playback.loop = old.playback.loop } else if fresh.playback.loop != old.playback.loop {
            target.setLoopMode(fresh.playback.loop)
            changed.append("loop \(fresh.playback.loop.rawValue)")
        }
        if overrides.rate { applied.playback.rate = old.playback.rate } else if fresh.playback.rate != old.playback.rate {
            // A configured rate is a forward one, which nothing refuses.
            try? target.setRate(fresh.playback.rate)
            changed.append("rate \(fresh.playback.rate)")
        }
        if fresh.captions != old.captions {
            target.applyCaptions(fresh.captions)
            changed.append("captions \(fresh.captions.show ? "on" : "off")")
        }
        if fresh.audio.volume != old.audio.volume {
            target.setVolume(fresh.audio.volume)
            changed.append("volume \(fresh.audio.volume)")
        }
        if overrides.logLevel { applied.log.level = old.log.level }
        if applied.log.level != old.log.level || applied.log.statusInterval != old.log.statusInterval {
            events.setInterval(applied.log.statusInterval)
            log.level = applied.log.level
            changed.append("log")
        }
        if fresh.controls.gpio != old.controls.gpio, let executor = executor.withLock({ $0 }) {
            // Each stop returns once its thread has let go of the line.
            state.withLock { $0.buttons }.forEach { $0.stop() }
            startButtons(fresh.controls.gpio, executor: executor)
            changed.append("gpio buttons")
        }
        var later: [String] = []
        if fresh.display != old.display { later.append("[display]") }
        if fresh.decode != old.decode { later.append("[decode]") }
        if fresh.layers != old.layers { later.append("[[layer]]") }
        if fresh.overlays != old.overlays { later.append("[[overlay]]") }
        if fresh.audio.enabled != old.audio.enabled || fresh.audio.device != old.audio.device
            || fresh.audio.latencyMs != old.audio.latencyMs { later.append("[audio] output") }
        if fresh.controls.stdin != old.controls.stdin { later.append("[controls.stdin]") }
        if fresh.fleet != old.fleet { later.append("[fleet]") }
        if fresh.sync != old.sync, !(playlistChanged && fresh.sync.mode == .wallclock) {
            if fresh.sync.mode == .wallclock { followWallClock(fresh.sync, replacing: nil) } else { player.followWallClock(nil) }
            changed.append(fresh.sync.mode == .wallclock ? "[sync] (the wall schedule made again)" : "[sync] (the player's own clock)")
        }
        // A socket or server restarted from one of its own requests would cut the reply.
        if fresh.controls.socket != old.controls.socket { later.append("[controls.socket]") }
        if fresh.controls.http != old.controls.http { later.append("[controls.http]") }
        if fresh.playback.mediaRoots != old.playback.mediaRoots { later.append("playback.media_roots") }
        if fresh.playback.start != old.playback.start { later.append("playback.start") }
        if fresh.log.plays != old.log.plays { later.append("log.plays") }
        if fresh.playback.keepOpen != old.playback.keepOpen { later.append("playback.keep_open") }
        if fresh.playback.betweenItems != old.playback.betweenItems || fresh.playback.betweenItemsMs != old.playback.betweenItemsMs {
            later.append("playback.between_items")
        }
        if fresh.playback.transition != old.playback.transition || fresh.playback.transitionMs != old.playback.transitionMs {
            later.append("playback.transition")
        }
        let (newPlayback, oldPlayback) = (fresh.playback, old.playback)
        if newPlayback.onUnavailable != oldPlayback.onUnavailable || newPlayback.retryMax != oldPlayback.retryMax
            || newPlayback.liveLatency != oldPlayback.liveLatency || newPlayback.forwardBuffer != oldPlayback.forwardBuffer
            || newPlayback.peakBitrate != oldPlayback.peakBitrate || newPlayback.maxResolution != oldPlayback.maxResolution
            || newPlayback.rtspTransport != oldPlayback.rtspTransport {
            later.append("playback network keys")
        }
        if newPlayback.waitToMinimizeStalls != oldPlayback.waitToMinimizeStalls {
            player.automaticallyWaitsToMinimizeStalling = newPlayback.waitToMinimizeStalls
            changed.append("wait_to_minimize_stalls \(newPlayback.waitToMinimizeStalls)")
        }
        // Read at each failure, so it applies now.
        if fresh.playback.onError != old.playback.onError { changed.append("on_error \(fresh.playback.onError.rawValue)") }
        let scheduleChanged = !overrides.playlist && (fresh.schedule != old.schedule || fresh.playlists != old.playlists
            || fresh.scheduleOptions != old.scheduleOptions)
        if scheduleChanged { changed.append("schedule") }
        state.withLock { $0.applied = applied }
        // The new entries' folders are watched; an empty list is waited for as at the start.
        if let reloadedPlaylist { watchPlaylist(refresh: reloadedPlaylist.isEmpty || waitsForFiles) }
        // Read again at once: what it shows now changes at once where it differs.
        if scheduleChanged { followSchedule() }
        var summary = changed.isEmpty ? "reloaded \(configPath): nothing to change now" : "reloaded \(configPath): " + changed.joined(separator: ", ")
        if !later.isEmpty { summary += "; \(later.joined(separator: ", ")) apply at the next start" }
        emit(ControlEvent(.reloaded, fields: ["summary": .string(summary)]))
        return .success(summary)
    }

    /// Follows the wall schedule `sync` makes of `items` (nil: the playlist
    /// as it is), made once their lengths are read; `items` replace the
    /// queue at once, off the old schedule first so nothing jumps by it.
    /// A schedule that cannot be made leaves the player on its own clock.
    func followWallClock(_ sync: MarqueeConfiguration.Sync, replacing items: [PlayerItem]?) {
        guard let epoch = sync.epochSeconds else { return }
        let imageDuration = state.withLock { $0.applied.playback.imageDuration }
        Task { [player, log] in
            do {
                let schedule = try await WallClockPlaylist.schedule(of: items ?? player.playlist.items, epoch: epoch, imageDuration: imageDuration)
                if let items {
                    player.followWallClock(nil)
                    player.replaceQueue(with: items)
                }
                player.followWallClock(schedule)
                log.info("[sync] on the wall schedule: \(schedule.durations.count) items, a loop of \(String(schedule.length, places: 3)) s")
            } catch {
                if let items { player.replaceQueue(with: items) }
                player.followWallClock(nil)
                log.error("[sync] \(error); playing on the player's own clock")
            }
        }
    }

    /// The playlist `configuration` names, in place of what follows the
    /// current item (which plays out and then leaves).
    func replaceUpcoming(with configuration: MarqueeConfiguration) -> [PlaylistResolver.Item] {
        let items = PlaylistLoader(log: log).items(for: configuration, configPath: configPath)
        state.withLock { $0.retiring = player.currentItem }
        player.replaceUpcomingItems(with: items.map(PlayerItem.init))
        return items
    }

    /// Why a playlist sent over a control channel was not taken.
    enum PlaylistRefusal: Error {
        /// An entry is missing, outside the media roots, or of a scheme not streamed.
        case entry(ControlError)
        /// Nowhere is set to keep it.
        case noStore(ControlError)
        /// Saving it failed (the call and the file are named).
        case store(ControlError)
    }

    /// A playlist sent over a control channel: checked against the media
    /// roots, saved (atomically) where it outlives a restart, then played
    /// from the next item. Nothing changes when any entry is refused.
    /// - Returns: a one-line summary, or why it was refused (naming the entry).
    func sendPlaylist(_ entries: [PlaylistEntry]) -> Result<String, PlaylistRefusal> {
        let applied = state.withLock { $0.applied }
        let roots = MediaRoots(applied.playback.mediaRoots, relativeTo: PlaylistLoader.base(configPath))
        var confined: [PlaylistEntry] = []
        for (index, entry) in entries.enumerated() {
            switch roots.confine(entry) {
            case .success(let checked): confined.append(checked)
            case .failure(let error): return .failure(.entry(ControlError("playlist[\(index)]: \(error.message)")))
            }
        }
        guard let store = PlaylistStore(applied.controls.http, configPath: configPath) else {
            return .failure(.noStore(ControlError("no [controls.http] playlist_file (nor $STATE_DIRECTORY) to keep a playlist in")))
        }
        do throws(ControlError) {
            try store.save(confined)
        } catch {
            return .failure(.store(error))
        }
        var configuration = applied
        configuration.playback.playlist = confined
        // While the schedule shows a named playlist, the new default waits for its turn.
        let items = replaceUpcoming(with: configuration.showing(state.withLock { $0.playlistShown }))
        state.withLock { $0.applied = configuration }
        watchPlaylist(refresh: items.isEmpty || waitsForFiles)
        let summary = "playlist: \(items.count) items from \(confined.count) entries, saved in \(store.path), from the next item"
        log.info(summary)
        emit(ControlEvent(.reloaded, fields: ["summary": .string(summary)]))
        return .success(summary)
    }
}
