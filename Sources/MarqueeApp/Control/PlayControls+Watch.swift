import FoundationEssentials
import Marquee
import MarqueeConfig

/// Following the playlist's folders while playing (issue 19): files added,
/// replaced or removed reach the queue at the next item boundary, a file
/// being written waits until it is complete, and an empty playlist is waited
/// for instead of ending the show.
extension PlayControls {
    /// What the watch of the playlist's folders keeps.
    struct Watching {
        var watch: FolderWatch?
        /// The playlist is empty: the show waits for files (the session does not end).
        var waiting = false
        /// The loop mode set aside while the playlist is empty, so the last
        /// item (its file gone) plays out instead of looping; back when files come.
        var heldLoop: LoopMode?
    }

    /// True while the watched playlist is empty and files are waited for.
    var waitsForFiles: Bool { watching.withLock { $0.waiting } }

    /// Watches the folders of the playlist in force (none when the command
    /// line named the inputs), replacing any earlier watch.
    /// - Parameter refresh: also bring the queue up to date with the folders now.
    func watchPlaylist(refresh: Bool) {
        let entries = state.withLock { $0.inForce.playback.playlist.map(\.path) }
        let base = PlaylistLoader.base(configPath)
        watching.withLock { watching in
            watching.watch?.stop()
            watching.watch = nil
        }
        guard !overrides.playlist, configPath != nil, FolderWatch.watches(entries, relativeTo: base) else {
            // Reloaded to files and URLs only: nothing to wait for, what the reload queued plays.
            let waited = watching.withLock { watching in
                defer { endWait(&watching) }
                return watching.waiting
            }
            if waited { player.play() }
            return
        }
        do {
            let watch = try FolderWatch(entries: entries, relativeTo: base, onChange: { [weak self] change in
                self?.refreshPlaylist(written: change)
            }, onProblem: { [log] line in log.error("playlist: \(line)") })
            watching.withLock { $0.watch = watch }
            log.debug("playlist: watching \(watch.folders.joined(separator: ", "))")
        } catch {
            log.error("playlist: \(error); folders are not watched")
            return
        }
        if refresh { refreshPlaylist(written: nil) }
    }

    func stopWatchingPlaylist() {
        watching.withLock { $0.watch?.stop() }
    }

    /// Resolves the playlist again and gives the player what changed,
    /// keeping the current item's place (see `PlaylistArrangement`).
    private func refreshPlaylist(written: FolderWatch.Change?) {
        let playback = state.withLock { $0.inForce.playback }
        let resolution = PlaylistResolver.resolve(playback.playlist, relativeTo: PlaylistLoader.base(configPath))
        watching.withLock { watching in
            guard let watch = watching.watch else { return }
            let (queue, position) = player.playlist
            let previous = queue.map(\.asset.source)
            var paths = resolution.items.map(\.source).filter(watch.admits)
            let durations = Dictionary(resolution.items.map { ($0.source, $0.duration) }, uniquingKeysWith: { first, _ in first })
            if playback.shuffle {
                // Files already in the show keep their shuffled order; new ones join the end.
                let known = previous.filter(paths.contains)
                paths = known + paths.filter { !known.contains($0) }.shuffled()
            }
            let replaced = Set(previous.filter { written?.wasWritten($0) ?? false })
            let arrangement = PlaylistArrangement(paths, previous: previous, current: position, replaced: replaced)
            let current = position.map { queue[$0] }
            let unchanged = if let position {
                arrangement.keepsCurrent && arrangement.played + [previous[position]] + arrangement.upcoming == previous
            } else {
                paths.isEmpty
            }
            let resuming = !paths.isEmpty && watching.waiting
            if resuming { endWait(&watching) }
            if !unchanged { apply(arrangement, replacing: queue, current: current, replaced: replaced, durations: durations) }
            // Playback that finished while waiting starts again with the new files.
            if resuming { player.play() }
            if paths.isEmpty, !watching.waiting { beginWait(&watching, folders: watch.folders, current: current) }
        }
    }

    /// Hands `arrangement` to the player, reusing the items already queued for
    /// unchanged files (the source may be reading ahead into one of them);
    /// new items get their entry's picture duration.
    private func apply(_ arrangement: PlaylistArrangement, replacing queue: [PlayerItem], current: PlayerItem?, replaced: Set<String>,
                       durations: [String: Double?]) {
        var reusable: [String: [PlayerItem]] = [:]
        for item in queue where item !== current && !replaced.contains(item.asset.source) {
            reusable[item.asset.source, default: []].append(item)
        }
        func item(_ path: String) -> PlayerItem {
            guard let reused = reusable[path]?.first else {
                return PlayerItem(PlaylistResolver.Item(source: path, duration: durations[path] ?? nil))
            }
            reusable[path]?.removeFirst()
            return reused
        }
        let played = arrangement.played.map(item)
        let upcoming = arrangement.upcoming.map(item)
        if let current, !arrangement.keepsCurrent {
            // Its file is gone or new: it plays out from the open file, then leaves.
            state.withLock { $0.retiring = current }
        }
        player.replacePlaylist(played: played, upcoming: upcoming)
        log.debug("playlist: \(played.count + upcoming.count) items from the folders, \(upcoming.count) after the current one")
    }

    /// An empty playlist is waited for, with one line.
    private func beginWait(_ watching: inout Watching, folders: [String], current: PlayerItem?) {
        watching.waiting = true
        let line = "waiting for files in \(folders.map { "'\($0)'" }.joined(separator: ", "))"
        log.info("playlist: \(line)")
        service?.setWaiting(.files, line)
        // A looping show whose files are all gone plays the last one out, then waits.
        if current != nil, player.loopMode == .playlist {
            watching.heldLoop = .playlist
            player.loopMode = .none
        }
    }

    private func endWait(_ watching: inout Watching) {
        if watching.waiting { service?.setWaiting(.files, nil) }
        watching.waiting = false
        if let loop = watching.heldLoop { player.loopMode = loop }
        watching.heldLoop = nil
    }
}
