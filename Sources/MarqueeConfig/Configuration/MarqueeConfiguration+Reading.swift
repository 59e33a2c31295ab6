import MarqueeCore

/// Why a configuration could not be used.
public enum ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The file could not be read at all (`reason` is the system's message).
    case unreadable(path: String, reason: String)
    /// The file was read; these are every syntax or value error in it.
    case invalid(SourceErrors)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .invalid(let errors): errors.description
        }
    }

    /// How many problems there are (1 for an unreadable file).
    public var count: Int {
        switch self {
        case .unreadable: 1
        case .invalid(let errors): errors.errors.count
        }
    }
}

extension MarqueeConfiguration {
    /// Checks a control command written in the file (a button's `action`);
    /// returns why it is not valid, or nil. The command language lives in
    /// MarqueeControl, which this module does not depend on.
    public typealias ActionValidator = @Sendable (String) -> String?

    /// A valid configuration, and what in it is valid but surely not meant.
    public struct Checked: Sendable {
        public var configuration: MarqueeConfiguration
        /// "FILE:LINE:COLUMN: warning: ..." each, in file order: a
        /// `[[schedule]]` entry that can never decide.
        public var warnings: [SourceError]
    }

    /// Reads and validates a configuration file.
    /// - Parameters:
    ///   - path: the file; relative paths are taken from the current directory.
    ///   - validateAction: checks each button's `action` and `long_action`.
    /// - Throws: `ConfigurationError.unreadable` when the file cannot be read,
    ///   `.invalid` with every problem found (syntax, types, ranges, unknown keys).
    public static func load(path: String, validateAction: ActionValidator? = nil) throws(ConfigurationError) -> MarqueeConfiguration {
        try check(path: path, validateAction: validateAction).configuration
    }

    /// Validates configuration text. See `load(path:validateAction:)`.
    public static func parse(_ text: String, file: String = "<config>",
                             validateAction: ActionValidator? = nil) throws(ConfigurationError) -> MarqueeConfiguration {
        try check(text, file: file, validateAction: validateAction).configuration
    }

    /// `load(path:validateAction:)` with the warnings.
    public static func check(path: String, validateAction: ActionValidator? = nil) throws(ConfigurationError) -> Checked {
        let bytes: [UInt8]
        do {
            bytes = try SourceFile.read(path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        return try check(utf8: bytes, file: path, validateAction: validateAction)
    }

    /// `parse(_:file:validateAction:)` with the warnings.
    public static func check(_ text: String, file: String = "<config>",
                             validateAction: ActionValidator? = nil) throws(ConfigurationError) -> Checked {
        try check(utf8: Array(text.utf8), file: file, validateAction: validateAction)
    }

    static func check(utf8 bytes: [UInt8], file: String, validateAction: ActionValidator?) throws(ConfigurationError) -> Checked {
        let table: TOMLTable
        do {
            table = try TOML.parse(utf8: bytes, file: file)
        } catch {
            throw .invalid(SourceErrors([error]))
        }
        let diagnostics = ConfigDiagnostics(file: file, text: String(decoding: bytes, as: UTF8.self))
        diagnostics.homeOfKey = sectionOfKey
        var configuration = MarqueeConfiguration()
        configuration.read(TableReader(table, name: "", at: SourceLocation(line: 1, column: 1), diagnostics: diagnostics),
                           validateAction: validateAction)
        guard diagnostics.errors.isEmpty else { throw .invalid(SourceErrors(diagnostics.errors)) }
        return Checked(configuration: configuration, warnings: SourceErrors(diagnostics.warnings).errors)
    }

    private mutating func read(_ root: TableReader, validateAction: ActionValidator?) {
        if let section = root.table("display") { display.read(section) }
        if let section = root.table("decode") { decode.read(section) }
        if let section = root.table("audio") { audio.read(section) }
        if let section = root.table("playback") { playback.read(section) }
        if let section = root.table("captions") { captions.read(section) }
        // After [playback], whose transition_ms a playlist's fade takes; before the schedule, which names them.
        if let section = root.table("playlists") { readPlaylists(section) }
        readSchedule(root.tables("schedule"))
        if let section = root.table("schedule_options") { scheduleOptions.read(section, playlists: playlists.map(\.name)) }
        readLayers(root.tables("layer"))
        readOverlays(root.tables("overlay"))
        if let section = root.table("controls") { controls.read(section, mediaRoots: playback.mediaRoots, validateAction: validateAction) }
        if let section = root.table("log") { log.read(section) }
        if let section = root.table("fleet") { fleet.read(section) }
        if let section = root.table("sync") { sync.read(section, playback: playback) }
        root.finish()
    }

    /// Every key a section knows, so a key written at the top level can be
    /// sent where it belongs ("volume" -> [audio]).
    static let sectionOfKey: [String: String] = {
        var map: [String: String] = [:]
        let diagnostics = ConfigDiagnostics(file: "", text: "")
        var configuration = MarqueeConfiguration()
        let sections: [(String, (TableReader) -> Void)] = [
            ("display", { configuration.display.read($0) }), ("decode", { configuration.decode.read($0) }),
            ("audio", { configuration.audio.read($0) }), ("playback", { configuration.playback.read($0) }),
            ("captions", { configuration.captions.read($0) }), ("log", { configuration.log.read($0) }),
            ("fleet", { configuration.fleet.read($0) }), ("sync", { configuration.sync.read($0, playback: configuration.playback) }),
        ]
        for (name, read) in sections {
            let reader = TableReader(TOMLTable(), name: name, at: SourceLocation(line: 1, column: 1), diagnostics: diagnostics)
            read(reader)
            for key in reader.known { map[key] = name }
        }
        return map
    }()
}

extension MarqueeConfiguration.Display {
    mutating func read(_ reader: TableReader) {
        reader.read(&card, "card")
        reader.read(&connector, "connector")
        reader.read(&mode, "mode", described: "preferred, highest, match-frame-rate or a mode like \"1920x1080@60\"",
                    parse: DisplayModeRequest.init)
        if let value = reader.value("plane") {
            if let id = value.integer, let exact = UInt32(exactly: id) {
                plane = .id(exact)
            } else if let text = value.string, let choice = PlaneRequest(text) {
                plane = choice
            } else {
                reader.error("plane", "expected \"auto\", \"primary\", \"overlay\" or a plane id, found \(value.string.map { "'\($0)'" } ?? value.typeName)",
                             at: value.location)
            }
        }
        reader.read(&gravity, "gravity")
        if let value = reader.value("rotation") {
            if let degrees = value.integer, [0, 90, 180, 270].contains(degrees) {
                rotation = Int(degrees)
            } else if value.string == "auto" {
                rotation = nil
            } else if let degrees = value.integer {
                reader.error("rotation", "\(degrees) is not one of 0, 90, 180, 270", at: value.location)
            } else {
                reader.error("rotation", "expected \"auto\" or 0, 90, 180, 270, found \(value.string.map { "'\($0)'" } ?? value.typeName)",
                             at: value.location)
            }
        }
        reader.read(&background, "background", described: "a colour like \"#RRGGBB\"", parse: RGBColor.init)
        reader.read(&splash, "splash")
        reader.read(&mirror, "mirror")
        reader.finish()
    }
}

extension MarqueeConfiguration.Captions {
    mutating func read(_ reader: TableReader) {
        reader.read(&show, "show")
        reader.read(&languages, "languages")
        reader.finish()
    }
}

extension MarqueeConfiguration.Decode {
    mutating func read(_ reader: TableReader) {
        reader.read(&hwaccel, "hwaccel")
        reader.read(&device, "device")
        reader.read(&threads, "threads", in: 0...64)
        reader.read(&deinterlace, "deinterlace")
        reader.read(&deinterlaceRate, "deinterlace_rate")
        reader.finish()
    }
}

extension MarqueeConfiguration.Audio {
    mutating func read(_ reader: TableReader) {
        reader.read(&enabled, "enabled")
        reader.read(&device, "device")
        reader.read(&volume, "volume", in: 0...1)
        reader.read(&latencyMs, "latency_ms", in: 10...2000, unit: " ms")
        reader.finish()
    }
}

extension MarqueeConfiguration.Playback {
    mutating func read(_ reader: TableReader) {
        reader.read(&playlist, "playlist")
        reader.read(&loop, "loop")
        reader.read(&shuffle, "shuffle")
        reader.read(&start, "start", in: 0...1_000_000, unit: " s")
        reader.read(&rate, "rate", in: PlaybackRate.range)
        reader.read(&imageDuration, "image_duration", in: PlaylistEntry.durations, unit: " s")
        reader.read(&betweenItems, "between_items")
        reader.read(&betweenItemsMs, "between_items_ms", in: 0...60_000, unit: " ms")
        if betweenItems == .black, betweenItemsMs == 0, let given = reader.value("between_items") {
            reader.error("between_items", "\"black\" has no effect while between_items_ms is 0 (items cut seamlessly); give it a duration",
                         at: given.location)
        }
        reader.read(&transition, "transition")
        reader.read(&transitionMs, "transition_ms", in: 0...10_000, unit: " ms")
        if transition == .fade, transitionMs == 0, let given = reader.value("transition") {
            reader.error("transition", "\"fade\" has no effect while transition_ms is 0; give it a duration or use \"cut\"",
                         at: given.location)
        }
        reader.read(&onError, "on_error")
        reader.read(&onUnavailable, "on_unavailable")
        reader.read(&retryMax, "retry_max", in: 1...3600, unit: " s")
        reader.read(&liveLatency, "live_latency", in: 0...600, unit: " s")
        reader.read(&forwardBuffer, "forward_buffer", in: 0.5...600, unit: " s")
        reader.read(&waitToMinimizeStalls, "wait_to_minimize_stalls")
        reader.read(&peakBitrate, "peak_bitrate", in: 0...1e12, unit: " bit/s")
        reader.read(&maxResolution, "max_resolution", described: "a size like \"1280x720\", or \"\" for no limit",
                    parse: MaximumResolution.init)
        reader.read(&rtspTransport, "rtsp_transport")
        reader.read(&keepOpen, "keep_open")
        reader.read(&mediaRoots, "media_roots")
        reader.finish()
    }
}

extension MarqueeConfiguration.Log {
    mutating func read(_ reader: TableReader) {
        reader.read(&level, "level")
        reader.read(&statusInterval, "status_interval", in: 0...3600, unit: " s")
        reader.read(&plays, "plays")
        reader.finish()
    }
}
