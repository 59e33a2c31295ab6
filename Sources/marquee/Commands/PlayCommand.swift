import FoundationEssentials
import Glibc
import Marquee
import MarqueeALSA
import MarqueeConfig
import MarqueeKMS
import MarqueeApp

/// `marquee play`: plays inputs in order on the chosen outputs; `--stats`
/// writes what happened as JSON at exit.
struct PlayCommand: Subcommand {
    static let name = "play"
    static let operands = "FILE_OR_URL..."
    static let options = [
        OptionSpec("--loop", "item|playlist|none", default: "none; [playback] loop", .input,
                   "repeat the current item, or the whole playlist, at its end"),
        OptionSpec("--loops", "N", default: "forever", .input,
                   "passes to play in all with --loop; alone it loops the item N times"),
        OptionSpec("--start", "SECONDS", default: "0; [playback] start", .input, "start the first item this far in, on the exact frame"),
        OptionSpec("--rate", "R", default: "1; [playback] rate", .input,
                   "speed, 1/16 to 16, sound at its pitch; -1/16 to -16 plays backwards from the end (or --start), muted"),
        OptionSpec("--image-duration", "SECONDS", default: "10; [playback] image_duration", .input,
                   "how long a still picture (JPEG, PNG, WebP, BMP...) stays up"),
    ] + TransitionFlags.options + [
        OptionSpec("--keep-open", .input, "at the end, hold the last frame and keep running ([playback] keep_open)"),
        RTSPTransportFlag.option,
        OptionSpec("--video-out", "kms|null|null:xrgb8888|file:DIR", default: "kms where /dev/dri has a card, else null", .display,
                   "a KMS plane, a simulated display (null:xrgb8888 converts every frame), or PNG/y4m files"),
    ] + KMSFlags.options + [
        OptionSpec("--audio-out", "alsa[:DEVICE]|null|wav:PATH", default: "alsa where /dev/snd exists, else null", .audio,
                   "an ALSA PCM ([audio] device), a simulated device, or a WAV file"),
        OptionSpec("--no-audio", .audio, "play video only ([audio] enabled = false)"),
        OptionSpec("--audio-drift", "PPM", default: "0", .audio,
                   "null and wav only: the simulated sound card runs this many parts per million fast (-1000 to 1000)"),
        OptionSpec("--audio-buffer-ms", "MS", default: "100", .audio, "ALSA buffer, at least 5 ms"),
        OptionSpec("--audio-period-ms", "MS", default: "20", .audio, "ALSA period, at most half the buffer"),
        OptionSpec("--hwdec", "auto|vaapi|software", default: "auto; [decode] hwaccel", .decoding,
                   "VA-API where the device decodes the stream, else software; vaapi says why when it cannot"),
        OptionSpec("--hwdec-device", "PATH", default: "the first /dev/dri/renderD*; [decode] device", .decoding, "the VA-API render node"),
        OptionSpec("--threads", "N", default: "0: one per core; [decode] threads", .decoding, "software video decoder threads"),
    ] + DeinterlaceFlags.options + PlaySettings.options + [
        OptionSpec("--untimed", .diagnostics, "as fast as the machine goes, every frame shown (outputs on virtual clocks)"),
        OptionSpec("--stats", "PATH", .diagnostics, "write counters, A-V offsets, seams and memory as JSON at exit"),
        OptionSpec("--presentation-log", "PATH", .diagnostics, "write every presented frame as a JSON line at exit"),
        OptionSpec("--play-log", "PATH", default: "none; [log] plays", .diagnostics,
                   "append one JSON line per item shown (proof of play), each when the item leaves the screen"),
    ]
    static let summary = "Play files, playlists and streams; a bad item is skipped with one error line."

    /// What the show is made from: --config's file under the options given.
    let options: ShowOptions

    init(parsing parser: inout ArgumentParser) throws {
        var settings = try PlaySettings(parsing: &parser)
        var scheduled = settings.configuration.scheduledAtStart(on: .system(trusted: settings.configuration.scheduleOptions.trustClock))
        let file = settings.configuration.showing(scheduled)
        var options = ShowOptions(configuration: settings.configuration, configPath: settings.path)
        let loopName = try parser.option("--loop") ?? file.playback.loop.rawValue
        guard var loop = LoopMode(rawValue: loopName) else { throw UsageError("--loop must be item, playlist or none") }
        let loops = try parser.option("--loops", as: Int.self)
        if let loops, loops < 1 { throw UsageError("--loops must be at least 1") }
        if loops != nil, loop == .none {
            // --loops alone loops the item (mpv's --loop-file=N); with --loop none it cannot apply.
            if settings.overrides.loop { throw UsageError("--loops needs --loop item or playlist, not none") }
            loop = .item
        }
        options.loop = loop
        options.loops = loops
        options.videoOut = try Self.output(try parser.option("--video-out") ?? (KMSFlags.hasCard ? "kms" : "null"), fileScheme: "file",
                                           flag: "--video-out")
        options.kms = settings.display(try KMSFlags.parse(&parser))
        options.splash = settings.splash(try parser.option("--splash"))
        let noAudioFlag = parser.flag("--no-audio")
        let audioFlag = try parser.option("--audio-out")
        if noAudioFlag, audioFlag != nil { throw UsageError("--no-audio and --audio-out contradict each other") }
        let noAudio = noAudioFlag || !file.audio.enabled
        // A kiosk with a sound card plays sound without being asked; elsewhere (CI, hosts) null.
        let defaultAudio = FileManager.default.fileExists(atPath: "/dev/snd") ? "alsa:\(file.audio.device)" : "null"
        let audio = try Self.output(audioFlag ?? defaultAudio, fileScheme: "wav", flag: "--audio-out")
        options.audioOut = noAudio ? nil : audio
        let alsaDevice: String? = if case .alsa(let name) = audio { name } else { nil }
        if let drift = try parser.option("--audio-drift", as: Double.self) {
            guard NullAudioOutput.driftRange.contains(drift) else { throw UsageError("--audio-drift must be parts per million from -1000 to 1000") }
            guard alsaDevice == nil else { throw UsageError("--audio-drift applies to --audio-out null or wav only (a real card drifts by itself)") }
            options.audioDriftPPM = drift
        }
        options.alsa = settings.audio(try Self.alsaConfiguration(&parser, device: alsaDevice ?? "default"))
        options.rate = try parser.option("--rate", as: Double.self) ?? file.playback.rate
        guard PlaybackRate.isPlayable(options.rate) else { throw UsageError("--rate must be \(PlaybackRate.eitherWayDescription)") }
        options.start = try parser.option("--start", as: Double.self) ?? (file.playback.start > 0 ? file.playback.start : nil)
        options.imageDuration = try parser.option("--image-duration", as: Double.self) ?? file.playback.imageDuration
        guard options.imageDuration.isFinite, options.imageDuration >= 0.04, options.imageDuration <= 86_400 else {
            throw UsageError("--image-duration must be seconds from 0.04 to 86400")
        }
        options.transition = try TransitionFlags.parse(&parser, file: file.playback, background: options.kms.background)
        options.untimed = parser.flag("--untimed")
        options.keepOpen = parser.flag("--keep-open") || file.playback.keepOpen
        options.threads = try parser.option("--threads", as: Int.self) ?? file.decode.threads
        guard options.threads >= 0 else { throw UsageError("--threads must be 0 (one per core) or more") }
        options.hardwareDecoding = try Self.hardwareDecoding(&parser, file: file.decode)
        options.deinterlacing = try DeinterlaceFlags.parse(&parser, file: file.decode)
        options.rtspTransport = try RTSPTransportFlag.parse(&parser, file: file.playback)
        options.statsPath = try parser.option("--stats")
        options.presentationLogPath = try parser.option("--presentation-log")
        options.playLogPath = settings.playLog(try parser.option("--play-log"))
        if options.untimed, case .alsa = options.audioOut { throw UsageError("--untimed cannot play to an ALSA device (it runs in real time)") }
        if let flag = settings.kmsOnlyFlags.first, options.videoOut != .kms {
            throw UsageError("\(flag) applies to --video-out kms only")
        }
        if let flag = settings.alsaOnlyFlags.first, alsaDevice == nil {
            throw UsageError("\(flag) applies to --audio-out alsa only")
        }

        let positional = try parser.positional()
        settings.overrides.playlist = !positional.isEmpty
        if !positional.isEmpty { scheduled = .defaultPlaylist }
        options.scheduled = scheduled
        options.inputs = positional.isEmpty ? settings.playlist(log: ControlLog(level: file.log.level), showing: scheduled)
            : positional.map { PlaylistResolver.Item(source: $0) }
        // A playlist of folders that are empty (or not there yet) is waited for.
        let waitsForFolders = positional.isEmpty && settings.path != nil
            && FolderWatch.watches(file.playback.playlist.map(\.path), relativeTo: PlaylistLoader.base(settings.path))
        guard !options.inputs.isEmpty || waitsForFolders else {
            throw UsageError("play needs at least one file or URL (or a [playback] playlist in --config)")
        }
        options.overrides = settings.overrides
        self.options = options
    }

    private static func output(_ text: String, fileScheme: String, flag: String) throws -> ShowOutput {
        if text == "null" { return .null }
        if fileScheme == "wav", text == "alsa" || text.hasPrefix("alsa:") {
            let device = String(text.dropFirst("alsa:".count))
            return .alsa(device.isEmpty ? "default" : device)
        }
        if fileScheme == "file", text == "kms" { return .kms }
        if fileScheme == "file", text == "null:xrgb8888" || text == "null:xrgb" { return .nullXRGB }
        let prefix = "\(fileScheme):"
        guard text.hasPrefix(prefix), text.count > prefix.count else {
            throw UsageError("\(flag) must be \(fileScheme == "wav" ? "alsa[:DEVICE], " : "")null or \(fileScheme):PATH, not '\(text)'")
        }
        return .file(String(text.dropFirst(prefix.count)))
    }

    /// `--hwdec` and `--hwdec-device` (else the file's `[decode]`), and the failure test hook.
    private static func hardwareDecoding(_ parser: inout ArgumentParser, file: MarqueeConfiguration.Decode) throws -> HardwareDecoding {
        let modeName = try parser.option("--hwdec") ?? file.hwaccel.rawValue
        guard let mode = HardwareDecoding.Mode(rawValue: modeName) else {
            throw UsageError("--hwdec must be auto, vaapi or software, not '\(modeName)'")
        }
        let device = try parser.option("--hwdec-device") ?? file.device
        var decoding = HardwareDecoding(mode: mode, device: device == "auto" ? nil : device)
        try TestHooks.applyHardwareFailure(to: &decoding)
        return decoding
    }

    /// `--audio-buffer-ms`, `--audio-period-ms` and the stall test hook, for `--audio-out alsa`.
    private static func alsaConfiguration(_ parser: inout ArgumentParser, device: String) throws -> ALSAAudioOutput.Configuration {
        var configuration = ALSAAudioOutput.Configuration(device: device)
        if let buffer = try parser.option("--audio-buffer-ms", as: Int.self) {
            guard buffer >= 5 else { throw UsageError("--audio-buffer-ms must be at least 5") }
            configuration.bufferDuration = .milliseconds(buffer)
        }
        if let period = try parser.option("--audio-period-ms", as: Int.self) {
            guard period >= 1, period * 2 <= configuration.bufferDuration.nanoseconds / 1_000_000 else {
                throw UsageError("--audio-period-ms must be at least 1 and at most half the buffer")
            }
            configuration.periodDuration = .milliseconds(period)
        }
        TestHooks.applyAudioStall(to: &configuration)
        return configuration
    }

    func run() async -> Int32 { await Show(options).run() }
}
