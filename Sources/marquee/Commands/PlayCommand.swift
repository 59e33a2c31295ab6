import FoundationEssentials
import Glibc
import Marquee
import MarqueeALSA
import MarqueeConfig
import MarqueeKMS

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

    let inputs: [PlaylistResolver.Item]
    let loop: LoopMode
    let loops: Int?
    /// What the schedule shows at the start (`inputs` are its playlist's).
    let scheduled: ScheduledContent
    let videoOut: OutputChoice
    let audioOut: OutputChoice?
    let rate: Double
    let start: Double?
    let imageDuration: Double
    /// `--transition`, `--transition-ms` over `[playback] transition` and `transition_ms`.
    let transition: ItemTransition
    let untimed: Bool
    /// At the end, hold the last frame and keep running (`--keep-open`, `[playback] keep_open`).
    let keepOpen: Bool
    /// Video decoder threads; 0 (the default) picks one per core.
    let threads: Int
    /// `--hwdec`, `--hwdec-device` over `[decode] hwaccel` and `device`.
    let hardwareDecoding: HardwareDecoding
    /// `--deinterlace`, `--deinterlace-rate` over `[decode] deinterlace` and `deinterlace_rate`.
    let deinterlacing: Deinterlacing
    /// `--rtsp-transport` over `[playback] rtsp_transport`.
    let rtspTransport: RTSPTransport
    let statsPath: String?
    /// Every presented frame as one JSON line (item, pts, display time, A-V offset), written at exit.
    let presentationLogPath: String?
    /// `--play-log PATH` over `[log] plays`: one line per item shown; nil for none.
    let playLogPath: String?
    let kms: KMSOptions
    /// `--splash PATH` over `[display] splash` (relative to the file's folder); nil for none.
    let splash: String?
    /// --config FILE and --control; what the command line does not set comes from the file.
    let settings: PlaySettings
    /// `--audio-out alsa[:DEVICE]`, the default where /dev/snd exists.
    let alsa: ALSAAudioOutput.Configuration

    enum OutputChoice: Equatable {
        case null
        /// The null display, taking only XRGB8888 (a KMS plane without YUV),
        /// so every frame goes through the engine's pixel conversion.
        case nullXRGB
        case file(String)
        /// A KMS plane on the DRM card (the default where one exists).
        case kms
        /// An ALSA PCM by name (`--audio-out alsa[:DEVICE]`).
        case alsa(String)
    }

    /// Set (to anything) to have one line written on stderr when the first
    /// frame is on screen: `marquee: first frame NANOSECONDS` (CLOCK_MONOTONIC).
    /// bench/ uses it to time start-up.
    static let firstFrameVariable = "MARQUEE_REPORT_FIRST_FRAME"

    init(parsing parser: inout ArgumentParser) throws {
        var settings = try PlaySettings(parsing: &parser)
        var scheduled = settings.configuration.scheduledAtStart(on: .system(trusted: settings.configuration.scheduleOptions.trustClock))
        let file = settings.configuration.showing(scheduled)
        let loopName = try parser.option("--loop") ?? file.playback.loop.rawValue
        guard var loop = LoopMode(rawValue: loopName) else { throw UsageError("--loop must be item, playlist or none") }
        loops = try parser.option("--loops", as: Int.self)
        if let loops, loops < 1 { throw UsageError("--loops must be at least 1") }
        if loops != nil, loop == .none {
            // --loops alone loops the item (mpv's --loop-file=N); with --loop none it cannot apply.
            if settings.overrides.loop { throw UsageError("--loops needs --loop item or playlist, not none") }
            loop = .item
        }
        self.loop = loop
        videoOut = try Self.output(try parser.option("--video-out") ?? (KMSFlags.hasCard ? "kms" : "null"), fileScheme: "file", flag: "--video-out")
        kms = settings.display(try KMSFlags.parse(&parser))
        splash = settings.splash(try parser.option("--splash"))
        let noAudioFlag = parser.flag("--no-audio")
        let audioFlag = try parser.option("--audio-out")
        if noAudioFlag, audioFlag != nil { throw UsageError("--no-audio and --audio-out contradict each other") }
        let noAudio = noAudioFlag || !file.audio.enabled
        // A kiosk with a sound card plays sound without being asked; elsewhere (CI, hosts) null.
        let defaultAudio = FileManager.default.fileExists(atPath: "/dev/snd") ? "alsa:\(file.audio.device)" : "null"
        let audio = try Self.output(audioFlag ?? defaultAudio, fileScheme: "wav", flag: "--audio-out")
        audioOut = noAudio ? nil : audio
        let alsaDevice: String? = if case .alsa(let name) = audio { name } else { nil }
        alsa = settings.audio(try Self.alsaConfiguration(&parser, device: alsaDevice ?? "default"))
        rate = try parser.option("--rate", as: Double.self) ?? file.playback.rate
        guard PlaybackRate.isPlayable(rate) else { throw UsageError("--rate must be \(PlaybackRate.eitherWayDescription)") }
        start = try parser.option("--start", as: Double.self) ?? (file.playback.start > 0 ? file.playback.start : nil)
        imageDuration = try parser.option("--image-duration", as: Double.self) ?? file.playback.imageDuration
        guard imageDuration.isFinite, imageDuration >= 0.04, imageDuration <= 86_400 else {
            throw UsageError("--image-duration must be seconds from 0.04 to 86400")
        }
        transition = try TransitionFlags.parse(&parser, file: file.playback, background: kms.background)
        untimed = parser.flag("--untimed")
        keepOpen = parser.flag("--keep-open") || file.playback.keepOpen
        threads = try parser.option("--threads", as: Int.self) ?? file.decode.threads
        guard threads >= 0 else { throw UsageError("--threads must be 0 (one per core) or more") }
        hardwareDecoding = try Self.hardwareDecoding(&parser, file: file.decode)
        deinterlacing = try DeinterlaceFlags.parse(&parser, file: file.decode)
        rtspTransport = try RTSPTransportFlag.parse(&parser, file: file.playback)
        statsPath = try parser.option("--stats")
        presentationLogPath = try parser.option("--presentation-log")
        playLogPath = settings.playLog(try parser.option("--play-log"))
        if untimed, case .alsa = audioOut { throw UsageError("--untimed cannot play to an ALSA device (it runs in real time)") }
        if let flag = settings.kmsOnlyFlags.first, videoOut != .kms {
            throw UsageError("\(flag) applies to --video-out kms only")
        }
        if let flag = settings.alsaOnlyFlags.first, alsaDevice == nil {
            throw UsageError("\(flag) applies to --audio-out alsa only")
        }

        let positional = try parser.positional()
        settings.overrides.playlist = !positional.isEmpty
        if !positional.isEmpty { scheduled = .defaultPlaylist }
        self.scheduled = scheduled
        inputs = positional.isEmpty ? settings.playlist(log: ControlLog(level: file.log.level), showing: scheduled)
            : positional.map { PlaylistResolver.Item(source: $0) }
        // A playlist of folders that are empty (or not there yet) is waited for.
        let waitsForFolders = positional.isEmpty && settings.path != nil
            && FolderWatch.watches(file.playback.playlist.map(\.path), relativeTo: PlaylistLoader.base(settings.path))
        guard !inputs.isEmpty || waitsForFolders else {
            throw UsageError("play needs at least one file or URL (or a [playback] playlist in --config)")
        }
        self.settings = settings
    }

    private static func output(_ text: String, fileScheme: String, flag: String) throws -> OutputChoice {
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

    func run() async -> Int32 {
        let service = ServiceNotifier.fromEnvironment()
        let configuration: PlayerConfiguration
        do {
            configuration = try makeConfiguration(service: service)
        } catch {
            Diagnostics.error("\(error)")
            return 1
        }
        let player = QueuePlayer(items: inputs.map(PlayerItem.init), configuration: configuration)
        player.loopMode = loop
        player.loopPasses = loops
        player.volume = Float(settings.configuration.audio.volume)
        let display = Self.describe(configuration.videoOutput, chosen: videoOut)
        // Following the player before it plays, so the first item is on the log.
        let recorder = openPlayLog(display: display)
        recorder?.follow(player)
        let controls = PlayControls(player: player, configuration: settings.effective(loop: loop, rate: rate, audio: audioOut != nil),
                                    playlistShown: scheduled, configPath: settings.path, overrides: settings.overrides, service: service,
                                    display: display, recorder: recorder,
                                    screen: ScreenLayout(gravity: kms.gravity, rotation: kms.rotation, background: kms.background))
        let session = PlaySession(player: player, service: service, keepsOpen: keepOpen,
                                  reportsSetUpFallbacks: hardwareDecoding.mode != .auto || settings.configuration.log.level >= .debug,
                                  retryCap: configuration.retry.cap, waitsForFiles: { controls.waitsForFiles })
        let events = player.events()
        if rate < 0 {
            player.rate = rate
        } else {
            player.defaultRate = rate
            player.play()
        }
        if let start { await player.seek(to: MediaTime(seconds: start, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero) }
        let signals = SignalWatcher()
        controls.start(stopping: signals)
        let statusLine = isatty(STDOUT_FILENO) == 1 ? StatusLine(player: player) : nil
        service?.startWatchdog(player)
        await session.run(events: events, until: signals)
        service?.stopping()
        controls.stop()
        statusLine?.stop()
        player.stop()
        // Once the player's threads are done, so no pass ends after it: after a
        // signal or quit the item on screen gets its line; after the end of the
        // playlist nothing is on screen.
        recorder?.end(reason: .shutdown)
        let audioDevice = (configuration.audioOutput as? ALSAAudioOutput)?.statistics
        if let statsPath {
            writeStats(StatsReport(playback: player.stats.snapshot, resources: session.resourceSamples, audioDevice: audioDevice), to: statsPath)
        }
        if let presentationLogPath { writePresentationLog(player.stats.presentationLog, to: presentationLogPath) }
        return controls.stoppedOnError || (session.failures > 0 && session.failures == inputs.count) ? 1 : 0
    }

    /// The play log's recorder, or nil without one (`--play-log`, `[log] plays`)
    /// or when the file cannot be opened: one line, and the show plays without it.
    private func openPlayLog(display: String) -> PlayRecorder? {
        guard let playLogPath else { return nil }
        let log = ControlLog(level: settings.configuration.log.level)
        do throws(PlayLogError) {
            let file = try PlayLogFile(path: playLogPath, warn: { log.warning($0) })
            return PlayRecorder(file: file, display: display, warn: { log.warning($0) })
        } catch {
            log.error("\(error); playing without a play log")
            return nil
        }
    }

    /// The display and its mode (KMS), or the output used instead, with its screen size.
    private static func describe(_ output: (any VideoOutput)?, chosen: OutputChoice) -> String {
        if let display = output as? KMSVideoOutput { return display.planeSummary }
        let size = output?.screenSize.map { " \($0.width)x\($0.height)" } ?? ""
        return switch chosen {
        case .kms: "kms (no display yet)"
        case .file(let path): "file:\(path)\(size)"
        case .null, .nullXRGB, .alsa: "null\(size)"
        }
    }

    private func makeConfiguration(service: ServiceNotifier?) throws -> PlayerConfiguration {
        // Untimed: each output runs on its own virtual clock, advanced by what it consumes.
        let videoClock: any HostClock = untimed ? VirtualClock() : MonotonicClock()
        let audioClock: any HostClock = untimed ? VirtualClock() : videoClock
        var displayOptions = kms
        displayOptions.onDisplayEvent = { Diagnostics.error($0) }
        var video: any VideoOutput = switch videoOut {
        case .null: NullVideoOutput(clock: videoClock)
        case .nullXRGB: NullVideoOutput(clock: videoClock, formats: [.xrgb8888])
        case .file(let path): try FileVideoOutput(path: path, clock: videoClock)
        case .kms: try Self.openDisplay(displayOptions, clock: videoClock, service: service)
        case .alsa: NullVideoOutput(clock: videoClock)  // only --audio-out parses alsa
        }
        if let display = video as? KMSVideoOutput {
            ControlLog(level: settings.configuration.log.level).info("display: \(display.planeSummary)")
        }
        if ProcessInfo.processInfo.environment[Self.firstFrameVariable] != nil {
            // The splash is drawn first, and is not the first frame.
            video = FirstFrameReporter.wrapping(video, skipping: showsSplash ? 1 : 0)
        }
        let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16)
        let audio: (any AudioOutput)? = switch audioOut {
        case nil: nil
        case .null, .nullXRGB, .kms: NullAudioOutput(format: format, clock: audioClock)  // only --video-out parses null:xrgb8888
        case .file(let path): try WAVAudioOutput(path: path, format: format, clock: audioClock)
        // Never fails: a missing card is one error line and playback goes on without sound.
        case .alsa: ALSAAudioOutput(alsa, onEvent: Self.reportAudioEvent)
        }
        var configuration = PlayerConfiguration(videoOutput: video, audioOutput: audio, hostClock: videoClock, untimed: untimed,
                                                videoThreads: threads, hardwareDecoding: hardwareDecoding,
                                                keepsPresentationLog: presentationLogPath != nil)
        configuration.betweenItems = settings.betweenItems(background: kms.background)
        configuration.transition = transition
        configuration.deinterlacing = deinterlacing
        configuration.imageDuration = imageDuration
        configuration.onUnavailable = settings.configuration.playback.onUnavailable
        configuration.retry = RetrySchedule(cap: settings.configuration.playback.retryMax)
        configuration.network.liveLatency = settings.configuration.playback.liveLatency
        configuration.network.forwardBuffer = settings.configuration.playback.forwardBuffer
        configuration.network.rtspTransport = rtspTransport
        configuration.waitsToMinimizeStalling = settings.configuration.playback.waitToMinimizeStalls
        if showsSplash { configuration.splash = Splash(path: splash, background: kms.background) }
        TestHooks.applyStageStall(to: &configuration)
        let playback = settings.configuration.playback
        configuration.network.variant = VariantPreference(peakBitRate: playback.peakBitrate, maximumWidth: playback.maxResolution.width,
                                                          maximumHeight: playback.maxResolution.height)
        return configuration
    }

    /// Whether the splash is drawn first: one was given, or a display has
    /// nothing to play at the start (files waited for) and shows the
    /// background rather than the console.
    private var showsSplash: Bool { splash != nil || (videoOut == .kms && inputs.isEmpty) }

    /// The KMS output, or, where no display is connected (a TV that is off
    /// at boot), one that waits for it: one line now, the mode set and the
    /// picture shown when a connector comes up; sound plays meanwhile.
    private static func openDisplay(_ options: KMSOptions, clock: any HostClock, service: ServiceNotifier?) throws -> any VideoOutput {
        do throws(KMSError) {
            return try KMSVideoOutput(options: options, clock: clock)
        } catch {
            guard error.isNoDisplay else { throw error }
            Diagnostics.error("\(error); waiting for a display (sound plays meanwhile)")
            service?.setWaiting(.display, "waiting for a display")
            return AwaitedDisplay(options: options, clock: clock, onConnected: { service?.setWaiting(.display, nil) })
        }
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

    /// Losing and regaining the device are one line each; underruns are counted in --stats.
    private static let reportAudioEvent: @Sendable (ALSAAudioOutput.Event) -> Void = { event in
        switch event {
        case .unavailable, .reconnected: Diagnostics.error(event.description)
        default: break
        }
    }

    /// What `--stats` writes: the player's counters plus resource samples (and
    /// the ALSA device's counters with `--audio-out alsa`).
    struct StatsReport: Encodable {
        let playback: PlaybackStats.Snapshot
        let resources: [PlaySession.ResourceSample]
        var audioDevice: ALSAAudioOutput.Statistics? = nil

        func encode(to encoder: any Encoder) throws {
            try playback.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(resources, forKey: .resources)
            try container.encodeIfPresent(audioDevice, forKey: .audioDevice)
        }

        private enum Key: String, CodingKey { case resources, audioDevice }
    }

    /// `--presentation-log`: one JSON object per presented frame, oldest first.
    private func writePresentationLog(_ log: [PresentationRecord], to path: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            var data = Data()
            for record in log {
                data.append(try encoder.encode(record))
                data.append(0x0A)
            }
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            Diagnostics.error("\(path): cannot write the presentation log: \(Diagnostics.reason(error))")
        }
    }

    private func writeStats(_ stats: StatsReport, to path: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(stats).write(to: URL(fileURLWithPath: path))
        } catch {
            Diagnostics.error("\(path): cannot write stats: \(Diagnostics.reason(error))")
        }
    }
}

/// Writes one line on stderr when the first frame is on screen (see
/// `PlayCommand.firstFrameVariable`); otherwise passes everything through,
/// the scan-out side too when the output has one (`ScanOutFirstFrameReporter`).
private class FirstFrameReporter: ScreenPowerOutput {
    private let base: any VideoOutput
    private var reported = false
    /// Pictures presented before the first frame (the splash).
    private var skipping: Int

    init(_ base: any VideoOutput, skipping: Int) {
        self.base = base
        self.skipping = skipping
    }

    static func wrapping(_ output: any VideoOutput, skipping: Int) -> any VideoOutput {
        if let scanOut = output as? any ScanOutOutput { return ScanOutFirstFrameReporter(scanOut, skipping: skipping) }
        return FirstFrameReporter(output, skipping: skipping)
    }

    var acceptedFormats: [PixelFormat] { base.acceptedFormats }
    var refreshInterval: Duration? { base.refreshInterval }
    var screenSize: PixelSize? { base.screenSize }

    func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime {
        report(try base.present(frame, at: target))
    }

    func flush() throws { try base.flush() }

    /// The base's screen; one without (files) is always on.
    var isScreenOn: Bool { (base as? any ScreenPowerOutput)?.isScreenOn ?? true }
    func setScreenPower(_ on: Bool) throws { try (base as? any ScreenPowerOutput)?.setScreenPower(on) }

    func report(_ shown: HostTime) -> HostTime {
        if skipping > 0 {
            skipping -= 1
            return shown
        }
        if !reported {
            reported = true
            let now = MonotonicClock().now().nanoseconds
            StandardStream.error.write("marquee: first frame \(now)\n")
        }
        return shown
    }
}

private final class ScanOutFirstFrameReporter: FirstFrameReporter, ScanOutOutput {
    private let scanOut: any ScanOutOutput

    init(_ scanOut: any ScanOutOutput, skipping: Int) {
        self.scanOut = scanOut
        super.init(scanOut, skipping: skipping)
    }

    func nextTarget(for frame: VideoFrame) throws -> RenderTarget { try scanOut.nextTarget(for: frame) }

    func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime {
        report(try scanOut.present(rendered, of: frame, at: target))
    }

    func canScanOut(_ frame: VideoFrame, dmabuf: DMABufDescriptor) -> Bool { scanOut.canScanOut(frame, dmabuf: dmabuf) }
    func maintain() { scanOut.maintain() }
    var needsPicture: Bool { scanOut.needsPicture }
}
