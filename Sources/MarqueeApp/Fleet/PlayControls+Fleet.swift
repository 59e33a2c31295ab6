import FoundationEssentials
import Marquee
import MarqueeConfig
import MarqueeControl
import MarqueeFleet

/// The fleet (`[fleet] broker`), started with the other controls and
/// stopped with them; what its status carries and how a pushed
/// configuration is taken.
extension PlayControls {
    func startFleet(_ settings: MarqueeConfiguration.Fleet) {
        guard settings.address != nil else { return }
        do {
            let agent = try FleetAgent(settings, controls: self, resolve: resolved)
            state.withLock { $0.fleet = agent }
            recorder?.onLineWritten { [weak agent] in agent?.playLineWritten() }
            agent.start(statusInterval: settings.statusInterval)
            log.debug("fleet: \(settings.broker) as \(agent.topics.id)")
        } catch {
            log.error("[fleet] \(error); playing without the fleet")
        }
    }

    func stopFleet() {
        let agent = state.withLock { state in
            defer { state.fleet = nil }
            return state.fleet
        }
        recorder?.onLineWritten(nil)
        agent?.stop()
    }

    /// `GET /status`'s fields and the fleet's own: id, groups, online, RSS,
    /// the last error and the configuration file's version (its FNV-1a hash).
    func fleetStatus(id: String, groups: [String]) -> JSONValue {
        guard case .object(var fields) = statusReport() else { return .null }
        fields["id"] = .string(id)
        fields["groups"] = .array(groups.map(JSONValue.string))
        fields["online"] = .bool(true)
        fields["rssKilobytes"] = ResourceUsage.current().map { .integer(Int64($0.residentKilobytes)) } ?? .null
        fields["lastError"] = state.withLock { $0.recentErrors.last } ?? .null
        fields["configVersion"] = configPath.flatMap { FileManager.default.contents(atPath: $0) }
            .map { .string(ContentHash.fnv1a64(Array($0))) } ?? .null
        return .object(fields)
    }

    /// A whole configuration document from the fleet: checked (every
    /// problem at its line:column), its playlists confined to the
    /// `media_roots` in force (which it may not change), written over the
    /// configuration file atomically and applied as a reload. A refused
    /// document changes nothing.
    func pushConfiguration(_ document: [UInt8]) -> Result<String, ControlError> {
        guard let configPath else { return .failure(ControlError("config: no configuration file to replace (started without --config)")) }
        guard let text = String(validating: document, as: UTF8.self) else { return .failure(ControlError("config: the document is not UTF-8")) }
        let pushed: MarqueeConfiguration
        do {
            pushed = try MarqueeConfiguration.parse(text, file: "pushed \(PathText.lastComponent(configPath))", validateAction: ControlCommand.validate)
        } catch {
            let problems = switch error {
            case .invalid(let errors): errors.errors.map(\.summary)
            case .unreadable: ["\(error)"]
            }
            return .failure(ControlError("config: \(problems.count) problem\(problems.count == 1 ? "" : "s"), nothing changed: "
                                         + problems.joined(separator: "; ")))
        }
        let applied = state.withLock { $0.applied }
        guard pushed.playback.mediaRoots == applied.playback.mediaRoots else {
            return .failure(ControlError("config: playback.media_roots cannot be changed from the fleet (it is \(applied.playback.mediaRoots)); nothing changed"))
        }
        let roots = MediaRoots(applied.playback.mediaRoots, relativeTo: PlaylistLoader.base(configPath))
        var playlists = [("playback.playlist", pushed.playback.playlist)] + pushed.playlists.map { ("playlists.\($0.name).items", $0.items) }
        for layer in pushed.layers {
            if case .items(let entries) = layer.content { playlists.append(("layer \(layer.name) playlist", entries)) }
        }
        for (key, entries) in playlists {
            for (index, entry) in entries.enumerated() {
                // Checked where the player will look: a relative path is the configuration file's folder's.
                var absolute = entry
                absolute.path = PlaylistResolver.absolute(entry.path, base: PlaylistLoader.base(configPath))
                if case .failure(let error) = roots.confine(absolute) {
                    return .failure(ControlError("config: \(key)[\(index)]: \(error.message); nothing changed"))
                }
            }
        }
        do throws(ControlError) {
            // The temporary file goes beside it, so the folder must be named.
            let path = configPath.hasPrefix("/") ? configPath : FileManager.default.currentDirectoryPath + "/" + configPath
            try AtomicFile.replace(path, with: document, what: "configuration")
        } catch {
            return .failure(ControlError("config: \(error.message)"))
        }
        return reload().map { "config: written to \(configPath); \($0)" }
    }
}
