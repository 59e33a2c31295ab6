import FoundationEssentials
import Marquee
import MarqueeALSA
import MarqueeApp
import MarqueeConfig
import MarqueeControl
import MarqueeKMS

/// `marquee play --config FILE [--control text|json|off]`: the file's
/// settings, with a record of which ones the command line sets itself
/// (options on the command line win over the file, now and at each reload).
struct PlaySettings: Sendable {
    static let options = [
        OptionSpec("--config", "FILE", default: "none: built-in defaults", .input,
                   "settings and playlist from this TOML file; options given here win over it (and at each reload)"),
        OptionSpec("--control", "text|json|off", default: "text; [controls.stdin]", .control,
                   "commands on stdin, replies on stdout: play, pause, seek, next, status, quit..."),
        OptionSpec("--log-level", "error|warning|info|debug", default: "info; [log] level", .diagnostics,
                   "what goes to stderr besides errors; debug adds why --hwdec auto decodes in software"),
    ]

    let path: String?
    /// The file's configuration (or the defaults), with --control applied.
    var configuration: MarqueeConfiguration
    var overrides = PlayControls.Overrides()
    /// The display and ALSA flags given on the command line.
    private let displayFlags: Set<String>
    private let audioFlags: Set<String>
    /// Options given that only the KMS output reads: an error with any other.
    let kmsOnlyFlags: [String]
    /// Options given that only the ALSA output reads.
    var alsaOnlyFlags: [String] { audioFlags.sorted() }

    /// Reads --config and --control, and notes which other options are
    /// given; call before anything else reads options from `parser`.
    /// - Throws: `UsageError`, or `ConfigurationError` with every problem in the file.
    init(parsing parser: inout ArgumentParser) throws {
        var probe = parser
        func given(_ name: String) -> Bool { (try? probe.option(name)) != nil }
        overrides.loop = given("--loop")
        overrides.rate = given("--rate")
        overrides.audio = probe.flag("--no-audio") || given("--audio-out")
        displayFlags = Set(["--card", "--connector", "--mode", "--plane", "--gravity", "--rotation", "--background"].filter(given))
        audioFlags = Set(["--audio-buffer-ms", "--audio-period-ms"].filter(given))
        kmsOnlyFlags = ["--card", "--connector", "--mode", "--plane", "--gravity", "--rotation"].filter(displayFlags.contains)
            + ["--legacy-kms", "--kms-prime"].filter { probe.flag($0) }

        path = try parser.option("--config")
        if let path {
            configuration = try MarqueeConfiguration.load(path: path, validateAction: ControlCommand.validate)
            PlaylistStore.applySaved(to: &configuration, configPath: path, log: ControlLog(level: configuration.log.level))
            ScheduleStore.applySaved(to: &configuration, configPath: path, log: ControlLog(level: configuration.log.level))
        } else {
            configuration = MarqueeConfiguration()
        }
        if let level = try parser.option("--log-level") {
            guard let parsed = LogLevel(rawValue: level) else {
                throw UsageError("--log-level must be \(LogLevel.allCases.map(\.rawValue).joined(separator: ", ")), not '\(level)'")
            }
            overrides.logLevel = true
            configuration.log.level = parsed
        }
        if let control = try parser.option("--control") {
            overrides.control = true
            switch control {
            case "off": configuration.controls.stdin.enabled = false
            case "text", "json":
                configuration.controls.stdin.enabled = true
                configuration.controls.stdin.format = ControlFormat(rawValue: control)!
            default: throw UsageError("--control must be text, json or off, not '\(control)'")
            }
        }
    }

    /// The items of the playlist `scheduled` names (none without a file).
    func playlist(log: ControlLog, showing scheduled: ScheduledContent) -> [PlaylistResolver.Item] {
        path == nil ? [] : PlaylistLoader(log: log).items(for: configuration.showing(scheduled), configPath: path)
    }

    /// `[display]` under the display flags that were given.
    func display(_ flags: KMSOptions) -> KMSOptions {
        var options = flags
        let display = configuration.display
        if !displayFlags.contains("--card"), display.card != "auto" { options.card = display.card }
        if !displayFlags.contains("--connector"), display.connector != "auto" { options.connector = display.connector }
        if !displayFlags.contains("--mode"), let mode = ModeRequest(display.mode.description) { options.mode = mode }
        if !displayFlags.contains("--plane") { options.plane = display.plane }
        if !displayFlags.contains("--gravity") { options.gravity = display.gravity }
        if !displayFlags.contains("--rotation") { options.rotation = display.rotation }
        if !displayFlags.contains("--background") { options.background = display.background.rgb }
        return options
    }

    /// `--splash PATH`, else `[display] splash` relative to the file's folder;
    /// nil for none.
    func splash(_ flag: String?) -> String? {
        if let flag { return flag.isEmpty ? nil : flag }
        let path = configuration.display.splash
        guard !path.isEmpty else { return nil }
        guard !path.hasPrefix("/"), let base = PlaylistLoader.base(self.path) else { return path }
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: base, isDirectory: true)).standardizedFileURL.path
    }

    /// `--play-log PATH`, else `[log] plays` relative to the file's folder;
    /// nil for none (`""`).
    func playLog(_ flag: String?) -> String? {
        let path = flag ?? configuration.log.plays
        guard !path.isEmpty else { return nil }
        return flag != nil ? path : PlaylistResolver.absolute(path, base: PlaylistLoader.base(self.path))
    }

    /// `[audio] latency_ms` as the ALSA buffer, unless --audio-buffer-ms was given
    /// (the device itself comes from `[audio] device` through the default --audio-out).
    func audio(_ flags: ALSAAudioOutput.Configuration) -> ALSAAudioOutput.Configuration {
        var options = flags
        guard !audioFlags.contains("--audio-buffer-ms") else { return options }
        options.bufferDuration = .milliseconds(configuration.audio.latencyMs)
        // The period must fit twice in the buffer; a short buffer gets short periods.
        if !audioFlags.contains("--audio-period-ms"), options.periodDuration * 2 > options.bufferDuration {
            options.periodDuration = .milliseconds(configuration.audio.latencyMs / 2)
        }
        return options
    }
}
