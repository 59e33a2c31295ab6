import MarqueeCore

extension MarqueeConfiguration {
    /// The configuration as a TOML document with every key spelt out, defaults
    /// included: what `marquee check-config` prints. Parsing it gives back an
    /// equal configuration.
    public var tomlText: String {
        var lines: [String] = []
        func section(_ header: String, _ pairs: [(String, String)]) {
            if !lines.isEmpty { lines.append("") }
            lines.append(header)
            lines += pairs.map { "\($0.0) = \($0.1)" }
        }
        section("[display]", [
            ("card", quote(display.card)), ("connector", quote(display.connector)),
            ("mode", quote(display.mode.description)),
            ("plane", { if case .id(let id) = display.plane { String(id) } else { quote(display.plane.description) } }()),
            ("gravity", quote(display.gravity.rawValue)), ("rotation", display.rotation.map(String.init) ?? quote("auto")),
            ("background", quote(display.background.description)), ("splash", quote(display.splash)),
            ("mirror", String(display.mirror)),
        ])
        section("[decode]", [
            ("hwaccel", quote(decode.hwaccel.rawValue)), ("device", quote(decode.device)), ("threads", String(decode.threads)),
            ("deinterlace", quote(decode.deinterlace.rawValue)), ("deinterlace_rate", quote(decode.deinterlaceRate.rawValue)),
        ])
        section("[audio]", [
            ("enabled", String(audio.enabled)), ("device", quote(audio.device)),
            ("volume", float(audio.volume)), ("latency_ms", String(audio.latencyMs)),
        ])
        section("[playback]", [
            ("playlist", "[" + playback.playlist.map(entry).joined(separator: ", ") + "]"),
            ("loop", quote(playback.loop.rawValue)), ("shuffle", String(playback.shuffle)),
            ("start", float(playback.start)), ("rate", float(playback.rate)), ("image_duration", float(playback.imageDuration)),
            ("between_items", quote(playback.betweenItems.rawValue)), ("between_items_ms", String(playback.betweenItemsMs)),
            ("transition", quote(playback.transition.rawValue)), ("transition_ms", String(playback.transitionMs)),
            ("on_error", quote(playback.onError.rawValue)), ("on_unavailable", quote(playback.onUnavailable.rawValue)),
            ("retry_max", float(playback.retryMax)),
            ("live_latency", float(playback.liveLatency)), ("forward_buffer", float(playback.forwardBuffer)),
            ("wait_to_minimize_stalls", String(playback.waitToMinimizeStalls)),
            ("peak_bitrate", float(playback.peakBitrate)), ("max_resolution", quote(playback.maxResolution.description)),
            ("rtsp_transport", quote(playback.rtspTransport.rawValue)), ("keep_open", String(playback.keepOpen)),
            ("media_roots", "[" + playback.mediaRoots.map(quote).joined(separator: ", ") + "]"),
        ])
        section("[captions]", [
            ("show", String(captions.show)), ("languages", "[" + captions.languages.map(quote).joined(separator: ", ") + "]"),
        ])
        lines.append("")
        lines += scheduleSections()
        for layer in layers {
            var pairs = [("name", quote(layer.name)), ("rect", layer.rect.description), ("z", String(layer.z)),
                         ("gravity", quote(layer.gravity.rawValue)), ("background", quote(layer.background.description)),
                         ("opacity", float(layer.opacity))]
            if let display = layer.display { pairs.append(("display", quote(display))) }
            switch layer.content {
            case .playlist(let name): pairs.append(("playlist", quote(name)))
            case .items(let items): pairs.append(("items", "[" + items.map(entry).joined(separator: ", ") + "]"))
            }
            if let audio = layer.audio { pairs.append(("audio", String(audio))) }
            section("[[layer]]", pairs)
        }
        for overlay in overlays {
            var pairs = [("name", quote(overlay.name)), ("kind", quote(overlay.kind.rawValue))]
            if let rect = overlay.rect { pairs.append(("rect", rect.description)) }
            pairs += [("anchor", quote(overlay.anchor.rawValue)), ("margin", String(overlay.margin)), ("z", String(overlay.z)),
                      ("opacity", float(overlay.opacity)), ("path", quote(overlay.path)), ("text", quote(overlay.text)),
                      ("format", quote(overlay.format)), ("file", quote(overlay.file)), ("speed", float(overlay.speed)),
                      ("font", quote(overlay.font)), ("size", float(overlay.size)), ("color", quote(overlay.color.description)),
                      ("outline", float(overlay.outline)), ("box", quote(overlay.box?.description ?? ""))]
            if let display = overlay.display { pairs.append(("display", quote(display))) }
            if let layer = overlay.layer { pairs.append(("layer", quote(layer))) }
            if let item = overlay.item { pairs += [("item", quote(item)), ("from", float(overlay.from))] }
            if let until = overlay.until { pairs.append(("until", float(until))) }
            section("[[overlay]]", pairs)
        }
        section("[controls.stdin]", [("enabled", String(controls.stdin.enabled)), ("format", quote(controls.stdin.format.rawValue))])
        section("[controls.socket]", [("path", quote(controls.socket.path))])
        section("[controls.http]", [
            ("listen", quote(controls.http.listen)), ("token_file", quote(controls.http.tokenFile)),
            ("cert_file", quote(controls.http.certFile)), ("key_file", quote(controls.http.keyFile)),
            ("playlist_file", quote(controls.http.playlistFile)), ("upload_dir", quote(controls.http.uploadDir)),
            ("max_upload_mb", String(controls.http.maxUploadMB)),
        ])
        for button in controls.gpio {
            var pairs = [
                ("chip", quote(button.chip)), ("line", String(button.line)), ("edge", quote(button.edge.rawValue)),
                ("active_low", String(button.activeLow)), ("debounce_ms", String(button.debounceMs)),
                ("action", quote(button.action)), ("long_press_ms", String(button.longPressMs)),
            ]
            if let longAction = button.longAction { pairs.append(("long_action", quote(longAction))) }
            section("[[controls.gpio]]", pairs)
        }
        section("[log]", [("level", quote(log.level.rawValue)), ("status_interval", float(log.statusInterval)),
                          ("plays", quote(log.plays))])
        section("[fleet]", [
            ("broker", quote(fleet.broker)), ("ca_file", quote(fleet.caFile)), ("cert_file", quote(fleet.certFile)),
            ("key_file", quote(fleet.keyFile)), ("username", quote(fleet.username)), ("password_file", quote(fleet.passwordFile)),
            ("id", quote(fleet.id)), ("groups", "[" + fleet.groups.map(quote).joined(separator: ", ") + "]"),
            ("status_interval", float(fleet.statusInterval)),
        ])
        section("[sync]", [("mode", quote(sync.mode.rawValue)), ("epoch", quote(sync.epoch))])
        return lines.joined(separator: "\n") + "\n"
    }

    /// The schedule's sections alone (`[playlists.NAME]`, `[[schedule]]`,
    /// `[schedule_options]`): a body `PUT /schedule` takes back.
    public var scheduleTOMLText: String { scheduleSections().joined(separator: "\n") + "\n" }

    private func scheduleSections() -> [String] {
        var lines: [String] = []
        func section(_ header: String, _ pairs: [(String, String)]) {
            if !lines.isEmpty { lines.append("") }
            lines.append(header)
            lines += pairs.map { "\($0.0) = \($0.1)" }
        }
        for playlist in playlists {
            var pairs = [("items", "[" + playlist.items.map(entry).joined(separator: ", ") + "]")]
            if let loop = playlist.loop { pairs.append(("loop", quote(loop.rawValue))) }
            if let shuffle = playlist.shuffle { pairs.append(("shuffle", String(shuffle))) }
            if let transition = playlist.transition { pairs.append(("transition", quote(transition.rawValue))) }
            section("[playlists.\(key(playlist.name))]", pairs)
        }
        for entry in schedule {
            var pairs: [(String, String)]
            switch entry.action {
            case .playlist(let name): pairs = [("playlist", quote(name))]
            case .screenOff: pairs = [("screen", quote("off"))]
            }
            if let days = entry.days { pairs.append(("days", "[" + days.sorted().map { quote($0.rawValue) }.joined(separator: ", ") + "]")) }
            if let dates = entry.dates { pairs.append(("dates", "[" + dates.map { quote($0.description) }.joined(separator: ", ") + "]")) }
            if let times = entry.times { pairs += [("from", quote(times.from.description)), ("until", quote(times.until.description))] }
            section("[[schedule]]", pairs)
        }
        section("[schedule_options]", [
            ("switch", quote(scheduleOptions.switchAt.rawValue)), ("before_clock_set", quote(scheduleOptions.beforeClockSet ?? "")),
            ("trust_clock", String(scheduleOptions.trustClock)),
        ])
        return lines
    }

    private func quote(_ text: String) -> String { JSONString.quoted(text) }

    /// A bare key where TOML allows one, else a quoted one.
    private func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
        return bare ? name : quote(name)
    }

    private func entry(_ entry: PlaylistEntry) -> String {
        guard entry.duration != nil || entry.captions != nil else { return quote(entry.path) }
        return "{ " + [("path", quote(entry.path)), ("duration", entry.duration.map(float)), ("captions", entry.captions.map(quote))]
            .compactMap { key, value in value.map { "\(key) = \($0)" } }.joined(separator: ", ") + " }"
    }

    /// Always with a decimal point or exponent, so it reads back as a float.
    private func float(_ number: Double) -> String { TOMLTaggedJSON.floatText(number) }
}
