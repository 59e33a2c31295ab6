extension MarqueeConfiguration.Controls {
    /// - Parameter mediaRoots: `[playback] media_roots`, which an upload folder must lie in.
    mutating func read(_ reader: TableReader, mediaRoots: [String], validateAction: MarqueeConfiguration.ActionValidator?) {
        if let section = reader.table("stdin") {
            section.read(&stdin.enabled, "enabled")
            section.read(&stdin.format, "format")
            section.finish()
        }
        if let section = reader.table("socket") {
            section.read(&socket.path, "path")
            section.finish()
        }
        if let section = reader.table("http") { http.read(section, mediaRoots: mediaRoots) }
        var seen: [String: SourceLocation] = [:]
        gpio = reader.tables("gpio").compactMap { entry in
            let button = MarqueeConfiguration.GPIOButton.read(entry, validateAction: validateAction)
            guard let button else { return nil }
            // Two entries on one line would fight over it: the second request fails as busy.
            let key = "\(button.chip)/\(button.line)"
            if let first = seen[key], let value = entry.table["line"] {
                entry.error("line", "\(button.chip) line \(button.line) is already used by the button at \(first)", at: value.location)
                return nil
            }
            seen[key] = entry.location
            return button
        }
        reader.finish()
    }
}

extension MarqueeConfiguration.GPIOButton {
    /// One `[[controls.gpio]]` entry; nil (with errors recorded) when a
    /// required key is missing.
    static func read(_ reader: TableReader, validateAction: MarqueeConfiguration.ActionValidator?) -> Self? {
        var chip = "", action = "", line = -1
        reader.read(&chip, "chip")
        reader.read(&line, "line", in: 0...65_535)
        reader.read(&action, "action")
        var button = Self(chip: chip, line: line, action: action)
        button.location = reader.location
        reader.read(&button.edge, "edge")
        reader.read(&button.activeLow, "active_low")
        reader.read(&button.debounceMs, "debounce_ms", in: 0...1000, unit: " ms")
        reader.read(&button.longPressMs, "long_press_ms", in: 0...60_000, unit: " ms")
        var longAction = ""
        reader.read(&longAction, "long_action")
        reader.finish()

        var complete = true
        for (key, present) in [("chip", !chip.isEmpty), ("line", line >= 0), ("action", !action.isEmpty)]
        where !present && reader.table[key] == nil {
            reader.diagnostics.error("\(reader.name): missing '\(key)'", at: reader.location)
            complete = false
        }
        for (key, command) in [("action", action), ("long_action", longAction)] where !command.isEmpty {
            if let problem = validateAction?(command), let value = reader.table[key] {
                reader.error(key, problem, at: value.location)
            }
        }
        if !longAction.isEmpty {
            button.longAction = longAction
            if button.longPressMs == 0, let value = reader.table["long_action"] {
                reader.error("long_action", "needs long_press_ms, the time a press must last to be long", at: value.location)
            }
        } else if button.longPressMs > 0, let value = reader.table["long_press_ms"] {
            reader.error("long_press_ms", "needs long_action, the command a long press runs", at: value.location)
        }
        if button.longPressMs > 0, button.edge != .rising, let value = reader.table["edge"] {
            reader.error("edge", "a long press is timed from the press, so it needs edge = \"rising\"", at: value.location)
        }
        return complete && !chip.isEmpty && line >= 0 && !action.isEmpty ? button : nil
    }
}

extension MarqueeConfiguration.HTTPControl {
    mutating func read(_ reader: TableReader, mediaRoots: [String]) {
        reader.read(&listen, "listen")
        reader.read(&tokenFile, "token_file")
        reader.read(&certFile, "cert_file")
        reader.read(&keyFile, "key_file")
        reader.read(&playlistFile, "playlist_file")
        reader.read(&uploadDir, "upload_dir")
        reader.read(&maxUploadMB, "max_upload_mb", in: 1...1_048_576, unit: " MiB")
        reader.finish()
        if !uploadDir.isEmpty, let value = reader.table["upload_dir"], !Self.lies(uploadDir, inOneOf: mediaRoots) {
            let roots = mediaRoots.isEmpty ? "none are set" : mediaRoots.map { "'\($0)'" }.joined(separator: ", ")
            reader.error("upload_dir", "'\(uploadDir)' must lie inside one of [playback] media_roots (\(roots)), where playlists may name files",
                         at: value.location)
        }
        guard !listen.isEmpty, let value = reader.table["listen"] else { return }
        guard Self.host(of: listen) != nil else {
            reader.error("listen", "'\(listen)' is not a numeric ADDRESS:PORT (\"127.0.0.1:8080\", \"[::1]:8080\", \"0.0.0.0:8443\")",
                         at: value.location)
            return
        }
        if certFile.isEmpty != keyFile.isEmpty, let given = reader.table[certFile.isEmpty ? "key_file" : "cert_file"] {
            reader.error(certFile.isEmpty ? "key_file" : "cert_file", "TLS needs both cert_file and key_file", at: given.location)
        }
        // Anyone on the network could steer the screen, and read its token off the wire without TLS.
        if !listensOnLoopback, tokenFile.isEmpty || certFile.isEmpty || keyFile.isEmpty {
            let missing = [tokenFile.isEmpty ? "token_file" : nil, certFile.isEmpty || keyFile.isEmpty ? "cert_file and key_file (TLS)" : nil]
                .compactMap { $0 }.joined(separator: " and ")
            reader.error("listen", "listening on '\(listen)', beyond loopback, needs \(missing); refusing to start without", at: value.location)
        }
    }
}

extension MarqueeConfiguration.HTTPControl {
    /// Whether `folder` is one of `roots` or below one, read as written (both
    /// relative to the same file): the player checks again with links resolved.
    static func lies(_ folder: String, inOneOf roots: [String]) -> Bool {
        let path = lexical(folder)
        return roots.map(lexical).contains { root in path == root || path.hasPrefix(root == "/" ? "/" : root + "/") }
    }

    /// `path` with `.`, empty and `..` components taken out.
    private static func lexical(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component == ".." { _ = components.popLast() } else { components.append(component) }
        }
        return (path.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
    }
}
