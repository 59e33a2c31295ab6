import FoundationEssentials
import Glibc
import Marquee
import MarqueeConfig
import MarqueeControl
import MarqueeHTTP

/// The HTTP API (`[controls.http] listen`), started with the other
/// controls and stopped with them; what its status and events carry.
extension PlayControls {
    func startHTTP(_ settings: MarqueeConfiguration.HTTPControl) {
        guard !settings.listen.isEmpty else { return }
        do {
            var configuration = try HTTPServerConfiguration(listen: settings.listen)
            // The status page holds no data; its script sends the token with what it asks for.
            configuration.openPaths = ["/"]
            if !settings.tokenFile.isEmpty { configuration.token = try SecretFile.read(resolved(settings.tokenFile), what: "token_file") }
            if !settings.certFile.isEmpty {
                configuration.tls = (certificatePEM: try SecretFile.read(resolved(settings.certFile), what: "cert_file"),
                                     keyPEM: try SecretFile.read(resolved(settings.keyFile), what: "key_file"))
            }
            if let refusal = configuration.refusal() {
                log.error("[controls.http] \(refusal); the other controls keep working")
                return
            }
            let applied = state.withLock { $0.applied }
            let base = PlaylistLoader.base(configPath)
            let media = MediaFolder.open(settings, mediaRoots: MediaRoots(applied.playback.mediaRoots, relativeTo: base), base: base, log: log)
            if case .failure(let error) = media, !applied.playback.mediaRoots.isEmpty || !settings.uploadDir.isEmpty {
                log.error("[controls.http] \(error.message); the media routes answer 409")
            }
            let server = try HTTPServer(configuration: configuration, handler: HTTPRoutes(controls: self, media: media))
            state.withLock { $0.hasUploadFolder = (try? media.get()) != nil }
            state.withLock { $0.http = server }
            log.debug("http: listening on \(settings.listen) (port \(server.port))\(configuration.tls == nil ? "" : ", TLS")")
        } catch {
            log.error("[controls.http] \(error); the other controls keep working")
        }
    }

    func stopHTTP() {
        let (server, feeds) = state.withLock { state in
            defer {
                state.http = nil
                state.feeds.removeAll()
            }
            return (state.http, Array(state.feeds.values))
        }
        // Streams end first, so stopping the server does not wait on them.
        for feed in feeds { feed.close() }
        server?.stop()
    }

    /// A new `GET /events` stream, fed until it closes.
    func openEventFeed(statusInterval: Double?) -> EventFeedQueue {
        let feed = EventFeedQueue(statusInterval: statusInterval, status: { [target] in ControlEvent(.status, status: target.status) },
                                  onClose: { [self] feed in _ = state.withLock { $0.feeds.removeValue(forKey: ObjectIdentifier(feed)) } })
        state.withLock { $0.feeds[ObjectIdentifier(feed)] = feed }
        return feed
    }

    /// What `GET /status` answers: the status, what comes next, the
    /// playlist, the display and decoder, drops, A-V offset, uptime and the
    /// latest errors.
    func statusReport() -> JSONValue {
        var fields = target.status.fields
        let stats = player.stats.snapshot
        let (items, position) = player.playlist
        let next = position.flatMap { index -> PlayerItem? in
            if index + 1 < items.count { return items[index + 1] }
            return player.loopMode == .playlist ? items.first : (player.loopMode == .item ? items[index] : nil)
        }
        fields["next"] = next.map { .string($0.asset.source) } ?? .null
        fields["playlist"] = target.value(of: .playlist)
        fields["display"] = .string(target.display)
        if let layout = screen.layout {
            fields["layers"] = .array(layout.status(mainPlaying: player.currentItem?.asset.source).map(JSONValue.object))
            fields["overlays"] = .array(layout.overlays.status.map(JSONValue.object))
        }
        fields["decoder"] = target.value(of: .decoder)
        fields["captions"] = player.currentItem?.selectedLegibleOption.map { .string($0.displayName) } ?? .null
        fields["framesPresented"] = .integer(Int64(stats.framesPresented))
        fields["framesDropped"] = .integer(Int64(stats.framesDropped))
        fields["avOffsetP50Ms"] = stats.avOffsetP50Ms.map(JSONValue.number) ?? .null
        fields["avOffsetP99Ms"] = stats.avOffsetP99Ms.map(JSONValue.number) ?? .null
        if let p50 = stats.wallOffsetP50Ms {
            // [sync] mode = "wallclock": how far from the wall schedule frames were shown.
            fields["wallOffsetP50Ms"] = .number(p50)
            fields["wallOffsetP99Ms"] = stats.wallOffsetP99Ms.map(JSONValue.number) ?? .null
            fields["wallOffsetMaxMs"] = stats.wallOffsetMaxMs.map(JSONValue.number) ?? .null
            fields["wallCorrections"] = .integer(Int64(stats.wallCorrections))
        }
        if let p50 = stats.audioWallOffsetP50Ms {
            // ... and the sound: its offset, the drift it is resampled by, its moves after a stall.
            fields["audioWallOffsetP50Ms"] = .number(p50)
            fields["audioWallOffsetP99Ms"] = stats.audioWallOffsetP99Ms.map(JSONValue.number) ?? .null
            fields["audioWallOffsetMaxMs"] = stats.audioWallOffsetMaxMs.map(JSONValue.number) ?? .null
            fields["audioCorrectionPpm"] = stats.audioCorrectionPpm.map { .number(($0 * 10).rounded() / 10) } ?? .null
            fields["audioWallMoves"] = .integer(Int64(stats.audioWallMoves))
        }
        fields["uploads"] = .bool(state.withLock { $0.hasUploadFolder })
        fields["uptime"] = .number((Date().timeIntervalSince(startedAt) * 10).rounded() / 10)
        fields["errors"] = .array(state.withLock { $0.recentErrors })
        return .object(fields)
    }
}
