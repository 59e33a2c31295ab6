import FoundationEssentials
import Glibc
import Marquee
import MarqueeALSA
import MarqueeConfig
import MarqueeKMS

/// A show: the player, its outputs and its controls made from
/// `ShowOptions`, played until it ends or is stopped (a signal, `quit`).
/// What `marquee play` runs; an application can run one the same way.
public struct Show: Sendable {
    public let options: ShowOptions

    public init(_ options: ShowOptions) {
        self.options = options
    }

    /// Set (to anything) to have one line written on stderr when the first
    /// frame is on screen: `marquee: first frame NANOSECONDS` (CLOCK_MONOTONIC).
    /// bench/ uses it to time start-up.
    public static let firstFrameVariable = "MARQUEE_REPORT_FIRST_FRAME"

    /// Plays; the process's exit status: 1 when the show stopped on an
    /// error or every item failed, else 0.
    public func run() async -> Int32 {
        let service = ServiceNotifier.fromEnvironment()
        let configuration: PlayerConfiguration
        let layout: ShowLayout?
        do {
            (configuration, layout) = try makeConfiguration(service: service)
        } catch {
            Diagnostics.error("\(error)")
            return 1
        }
        let player = QueuePlayer(items: options.inputs.map(PlayerItem.init), configuration: configuration)
        player.loopMode = options.loop
        player.loopPasses = options.loops
        player.volume = Float(options.configuration.audio.volume)
        let sync = options.configuration.sync
        if sync.mode == .wallclock, let epoch = sync.epochSeconds {
            do {
                let schedule = try await WallClockPlaylist.schedule(of: player.playlist.items, epoch: epoch, imageDuration: options.imageDuration)
                player.followWallClock(schedule)
            } catch {
                Diagnostics.error("[sync] \(error); playing on the player's own clock")
            }
        }
        let display = layout?.summary ?? Self.describe(configuration.videoOutput, chosen: options.videoOut)
        // Following the player before it plays, so the first item is on the log.
        let recorder = openPlayLog(display: display)
        recorder?.follow(player)
        layout?.overlays.follow(player)
        let controls = PlayControls(player: player, configuration: options.effective,
                                    playlistShown: options.scheduled, configPath: options.configPath, overrides: options.overrides, service: service,
                                    display: display, recorder: recorder,
                                    screen: ScreenLayout(gravity: options.kms.gravity, rotation: options.kms.rotation, background: options.kms.background,
                                                         layout: layout))
        let session = PlaySession(player: player, service: service, keepsOpen: options.keepOpen,
                                  reportsSetUpFallbacks: options.hardwareDecoding.mode != .auto || options.configuration.log.level >= .debug,
                                  retryCap: configuration.retry.cap, waitsForFiles: { controls.waitsForFiles })
        let events = player.events()
        if options.rate < 0 {
            player.rate = options.rate
        } else {
            player.defaultRate = options.rate
            player.play()
        }
        if let start = options.start { await player.seek(to: MediaTime(seconds: start, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero) }
        layout?.start()
        let signals = SignalWatcher()
        controls.start(stopping: signals)
        let statusLine = isatty(STDOUT_FILENO) == 1 ? StatusLine(player: player) : nil
        service?.startWatchdog(player)
        await session.run(events: events, until: signals)
        service?.stopping()
        controls.stop()
        statusLine?.stop()
        player.stop()
        layout?.stop()
        // Once the player's threads are done, so no pass ends after it: after a
        // signal or quit the item on screen gets its line; after the end of the
        // playlist nothing is on screen.
        recorder?.end(reason: .shutdown)
        let audioDevice = (configuration.audioOutput as? ALSAAudioOutput)?.statistics
        if let statsPath = options.statsPath {
            writeStats(StatsReport(playback: player.stats.snapshot, resources: session.resourceSamples, audioDevice: audioDevice), to: statsPath)
        }
        if let logPath = options.presentationLogPath { writePresentationLog(player.stats.presentationLog, to: logPath) }
        return controls.stoppedOnError || (session.failures > 0 && session.failures == options.inputs.count) ? 1 : 0
    }

    /// The play log's recorder, or nil without one (`--play-log`, `[log] plays`)
    /// or when the file cannot be opened: one line, and the show plays without it.
    private func openPlayLog(display: String) -> PlayRecorder? {
        guard let playLogPath = options.playLogPath else { return nil }
        let log = ControlLog(level: options.configuration.log.level)
        do throws(PlayLogError) {
            let file = try PlayLogFile(path: playLogPath, warn: { log.warning($0) })
            return PlayRecorder(file: file, display: display, warn: { log.warning($0) })
        } catch {
            log.error("\(error); playing without a play log")
            return nil
        }
    }

    /// The display and its mode (KMS), or the output used instead, with its screen size.
    private static func describe(_ output: (any VideoOutput)?, chosen: ShowOutput) -> String {
        if let display = output as? KMSVideoOutput { return display.planeSummary }
        let size = output?.screenSize.map { " \($0.width)x\($0.height)" } ?? ""
        return switch chosen {
        case .kms: "kms (no display yet)"
        case .file(let path): "file:\(path)\(size)"
        case .null, .nullXRGB, .alsa: "null\(size)"
        }
    }

    /// The main player's configuration, and the layout where the file has `[[layer]]`s.
    private func makeConfiguration(service: ServiceNotifier?) throws -> (PlayerConfiguration, ShowLayout?) {
        // Untimed: each output runs on its own virtual clock, advanced by what it consumes.
        let videoClock: any HostClock = options.untimed ? VirtualClock() : MonotonicClock()
        let audioClock: any HostClock = options.untimed ? VirtualClock() : videoClock
        var displayOptions = options.kms
        displayOptions.onDisplayEvent = { Diagnostics.error($0) }
        let layered = !(options.configuration.layers.isEmpty && options.configuration.overlays.isEmpty) && options.videoOut != .nullXRGB
        // A layout's display is made once the configuration its other layers share is.
        var video: any VideoOutput = switch layered ? .null : options.videoOut {
        case .null: NullVideoOutput(clock: videoClock)
        case .nullXRGB: NullVideoOutput(clock: videoClock, formats: [.xrgb8888])
        case .file(let path): try FileVideoOutput(path: path, clock: videoClock)
        case .kms: try Self.openDisplay(displayOptions, clock: videoClock, service: service)
        case .alsa: NullVideoOutput(clock: videoClock)  // only --audio-out parses alsa
        }
        if let display = video as? KMSVideoOutput {
            ControlLog(level: options.configuration.log.level).info("display: \(display.planeSummary)")
        }
        if ProcessInfo.processInfo.environment[Self.firstFrameVariable] != nil {
            // The splash is drawn first, and is not the first frame.
            video = FirstFrameReporter.wrapping(video, skipping: showsSplash ? 1 : 0)
        }
        let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16)
        let audio: (any AudioOutput)? = switch options.audioOut {
        case nil: nil
        case .null, .nullXRGB, .kms: NullAudioOutput(format: format, clock: audioClock, driftPPM: options.audioDriftPPM)  // only --video-out parses null:xrgb8888
        case .file(let path): try WAVAudioOutput(path: path, format: format, clock: audioClock, driftPPM: options.audioDriftPPM)
        // Never fails: a missing card is one error line and playback goes on without sound.
        case .alsa: ALSAAudioOutput(options.alsa, onEvent: Self.reportAudioEvent)
        }
        var configuration = PlayerConfiguration(videoOutput: video, audioOutput: audio, hostClock: videoClock, untimed: options.untimed,
                                                videoThreads: options.threads, hardwareDecoding: options.hardwareDecoding,
                                                keepsPresentationLog: options.presentationLogPath != nil)
        configuration.betweenItems = options.betweenItems(background: options.kms.background)
        configuration.transition = options.transition
        configuration.deinterlacing = options.deinterlacing
        configuration.imageDuration = options.imageDuration
        let captions = options.configuration.captions
        configuration.legibleCriteria = captions.show ? MediaSelectionCriteria(preferredLanguages: captions.languages) : nil
        configuration.onUnavailable = options.configuration.playback.onUnavailable
        configuration.retry = RetrySchedule(cap: options.configuration.playback.retryMax)
        configuration.network.liveLatency = options.configuration.playback.liveLatency
        configuration.network.forwardBuffer = options.configuration.playback.forwardBuffer
        configuration.network.rtspTransport = options.rtspTransport
        configuration.waitsToMinimizeStalling = options.configuration.playback.waitToMinimizeStalls
        if showsSplash { configuration.splash = Splash(path: options.splash, background: options.kms.background) }
        TestHooks.applyStageStall(to: &configuration)
        let playback = options.configuration.playback
        configuration.network.variant = VariantPreference(peakBitRate: playback.peakBitrate, maximumWidth: playback.maxResolution.width,
                                                          maximumHeight: playback.maxResolution.height)
        guard layered else { return (configuration, nil) }
        let log = ControlLog(level: options.configuration.log.level)
        let layout = try ShowLayout(options: options, clock: videoClock, base: configuration, log: log)
        for display in layout.displays { log.info("display: \(display.summary)") }
        configuration.videoOutput = ProcessInfo.processInfo.environment[Self.firstFrameVariable] != nil
            ? FirstFrameReporter.wrapping(layout.main, skipping: showsSplash ? 1 : 0) : layout.main
        if options.configuration.mainLayer?.audio == false { configuration.audioOutput = nil }
        return (configuration, layout)
    }

    /// Whether the splash is drawn first: one was given, or a display has
    /// nothing to play at the start (files waited for) and shows the
    /// background rather than the console.
    private var showsSplash: Bool { options.splash != nil || (options.videoOut == .kms && options.inputs.isEmpty) }

    /// The KMS output, or, where no display is connected (a TV that is off
    /// at boot), one that waits for it: one line now, the mode set and the
    /// picture shown when a connector comes up; sound plays meanwhile.
    private static func openDisplay(_ display: KMSOptions, clock: any HostClock, service: ServiceNotifier?) throws -> any VideoOutput {
        do throws(KMSError) {
            return try KMSVideoOutput(options: display, clock: clock)
        } catch {
            guard error.isNoDisplay else { throw error }
            Diagnostics.error("\(error); waiting for a display (sound plays meanwhile)")
            service?.setWaiting(.display, "waiting for a display")
            return AwaitedDisplay(options: display, clock: clock, onConnected: { service?.setWaiting(.display, nil) })
        }
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
