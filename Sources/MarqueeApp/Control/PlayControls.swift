import FoundationEssentials
import Glibc
import Marquee
import MarqueeConfig
import MarqueeControl
import MarqueeHTTP
import Synchronization

/// Everything that steers a running `marquee play`: commands on stdin,
/// GPIO buttons, status events, and the configuration file, read again on
/// SIGHUP or `reload`. Owns one `CommandExecutor` that all channels share.
///
/// Thread-safe: commands arrive on the stdin thread, button threads and
/// the signal queue; shared state is behind one Mutex.
public final class PlayControls: Sendable {
    /// What the command line set, which a reloaded file must not undo.
    public struct Overrides: Sendable {
        public var playlist = false
        public var loop = false
        public var rate = false
        public var audio = false
        public var control = false
        public var logLevel = false

        public init() {}
    }

    // Internal rather than private: PlayControls+Reload.swift uses these too.
    struct State {
        /// The configuration now in force (file values under command-line overrides).
        var applied: MarqueeConfiguration
        var buttons: [GPIOButtonSource] = []
        /// An item a reload replaced, still playing; removed from the queue once it ends.
        var retiring: PlayerItem?
        var stoppedOnError = false
        /// Ends the session the way SIGTERM does; set by `start`.
        var stopper: SignalWatcher?
        /// The last "state" event written ("playing" or "paused").
        var lastStateEvent: String?
        /// The control socket, while it serves (`[controls.socket]`).
        var socket: ControlSocketServer?
        /// The HTTP API, while it serves (`[controls.http]`), and its event streams.
        var http: HTTPServer?
        var feeds: [ObjectIdentifier: EventFeedQueue] = [:]
        /// This screen in its fleet (`[fleet]`), while connected or trying to be.
        var fleet: FleetAgent?
        /// Whether the HTTP API has an upload folder (its media routes work).
        var hasUploadFolder = false
        /// The latest error events, newest last, for the status page.
        var recentErrors: [JSONValue] = []
        /// The schedule followed, the clock it reads and its follower; nil without one.
        var schedule: (value: Schedule, clock: any WallClock, follower: ScheduleFollower<ScheduledContent>)?
        /// What the schedule said last; nil before its first reading (or without one).
        var scheduled: ScheduledContent?
        /// The playlist on screen, or shown before the screen went off (the default playlist without a schedule).
        var playlistShown: ScheduledContent
        /// The configuration as it plays now: the scheduled playlist in place of `[playback]`'s.
        var inForce: MarqueeConfiguration { applied.showing(playlistShown) }
    }

    let player: QueuePlayer
    let target: QueuePlayerTarget
    let configPath: String?
    let overrides: Overrides
    let output: LineWriter
    let log: ControlLog
    let events: StatusEventStream
    let state: Mutex<State>
    let executor: Mutex<CommandExecutor?> = Mutex(nil)
    let hangup: SignalHandler
    let watching = Mutex(Watching())
    /// Told about reloads and waits for files (`RELOADING=1`, `STATUS=`).
    let service: ServiceNotifier?
    /// The play log (`[log] plays`), when there is one.
    let recorder: PlayRecorder?
    /// How the display composes what it shows, for screenshots.
    let screen: ScreenLayout
    let startedAt = Date()

    /// - Parameters:
    ///   - playlistShown: the playlist the schedule showed when the player's was made.
    ///   - display: the display and its mode, or the output used instead, for `get display`.
    ///   - recorder: the play log's, told when a command moves on from an item; its file answers `GET /plays`.
    init(player: QueuePlayer, configuration: MarqueeConfiguration, playlistShown: ScheduledContent, configPath: String?, overrides: Overrides,
         service: ServiceNotifier?, display: String, recorder: PlayRecorder?, screen: ScreenLayout) {
        self.player = player
        self.recorder = recorder
        recorder?.playlist = playlistShown.playlistName
        self.screen = screen
        self.service = service
        self.configPath = configPath
        self.overrides = overrides
        target = QueuePlayerTarget(player: player, display: display, recorder: recorder, overlays: screen.layout?.overlays,
                                   captionLanguages: configuration.captions.languages)
        LineWriter.ignoreBrokenPipes()
        output = LineWriter(descriptor: STDOUT_FILENO)
        log = ControlLog(level: configuration.log.level)
        events = StatusEventStream(target: target, writer: output)
        state = Mutex(State(applied: configuration, playlistShown: playlistShown))
        hangup = SignalHandler(SIGHUP)
        // Subscribed before playback starts, so a first item that fails at once is seen.
        _ = player.addEventHandler { [self] event in handle(event) }
    }

    /// True when an item failed with `on_error = "stop"`: the exit status is 1.
    var stoppedOnError: Bool { state.withLock { $0.stoppedOnError } }

    /// Starts every configured control. A control that cannot start (a
    /// missing GPIO chip) is reported and the others run.
    /// - Parameter stopping: `quit` and `on_error = "stop"` end the session through it.
    func start(stopping signals: SignalWatcher) {
        let configuration = state.withLock { $0.applied }
        var reloadHandler: CommandExecutor.ReloadHandler?
        if configPath != nil { reloadHandler = { @Sendable [self] in reload() } }
        // quit ends the session the way SIGTERM does: stats written, outputs closed.
        let executor = CommandExecutor(target: target, reload: reloadHandler, quit: { signals.requestStop() })
        self.executor.withLock { $0 = executor }
        events.setInterval(configuration.log.statusInterval)
        if configuration.controls.stdin.enabled {
            let format = CommandFormat(rawValue: configuration.controls.stdin.format.rawValue) ?? .text
            StdinControlSource(format: format, executor: executor, replies: output) { [log] failure in
                if let failure { log.warning("stdin: \(failure); commands from stdin stop, playback goes on") }
            }.start()
        }
        startButtons(configuration.controls.gpio, executor: executor)
        startSocket(configuration.controls.socket, executor: executor)
        startHTTP(configuration.controls.http)
        startFleet(configuration.fleet)
        let stopNow = state.withLock { state -> Bool in
            state.stopper = signals
            return state.stoppedOnError
        }
        // An item failed (with on_error = "stop") before there was a session to stop.
        if stopNow { signals.requestStop() }
        watchPlaylist(refresh: true)
        followSchedule()
        hangup.start { [self] in
            // A failed reload has already logged its problems in full.
            if case .success(let summary) = reload() { log.info("SIGHUP: \(summary)") }
        }
    }

    func stop() {
        stopFollowingSchedule()
        stopWatchingPlaylist()
        events.stop()
        hangup.stop()
        state.withLock { $0.buttons }.forEach { $0.stop() }
        stopSocket()
        stopHTTP()
        stopFleet()
    }

    // MARK: Buttons

    func startButtons(_ buttons: [MarqueeConfiguration.GPIOButton], executor: CommandExecutor) {
        var started: [GPIOButtonSource] = []
        for button in buttons {
            guard let source = makeButton(button, executor: executor) else { continue }
            do {
                try source.start()
                started.append(source)
                log.debug("gpio \(button.chip) line \(button.line): watching (\(button.action))")
            } catch {
                log.error("\(error); the other controls keep working")
            }
        }
        state.withLock { $0.buttons = started }
    }

    private func makeButton(_ button: MarqueeConfiguration.GPIOButton, executor: CommandExecutor) -> GPIOButtonSource? {
        // Actions were checked when the file was read; this cannot fail for a loaded file.
        guard let action = try? ControlCommand(parsing: button.action) else { return nil }
        let longAction = button.longAction.flatMap { try? ControlCommand(parsing: $0) }
        let settings = ButtonDecoder.Settings(edge: ButtonDecoder.Edge(rawValue: button.edge.rawValue) ?? .rising,
                                              activeLow: button.activeLow, debounceMilliseconds: button.debounceMs,
                                              longPressMilliseconds: button.longPressMs)
        return GPIOButtonSource(button: .init(chip: button.chip, line: button.line, settings: settings, action: action,
                                              longAction: longAction),
                                executor: executor, log: { [log] in log.info($0) }, trace: { [log] in log.debug($0) })
    }

    // MARK: Player events

    private func handle(_ event: PlayerEvent) {
        let (applied, retiring) = state.withLock { ($0.applied, $0.retiring) }
        switch event {
        case .currentItemChanged(let item):
            if let retiring, item !== retiring {
                // The item a reload replaced has ended: it leaves the playlist for good.
                player.remove(retiring)
                state.withLock { $0.retiring = nil }
            }
            emit(ControlEvent(.item, status: target.status))
        case .itemStatusChanged(let item, .failed):
            emit(ControlEvent(.error, fields: ["source": .string(item.asset.source),
                                               "message": .string(item.error.map { "\($0)" } ?? "cannot be played")]))
            if applied.playback.onError == .stop {
                let stopper = state.withLock { state -> SignalWatcher? in
                    state.stoppedOnError = true
                    return state.stopper
                }
                log.error("on_error = \"stop\": stopping after \(item.asset.source) failed")
                // Before start() there is no session yet; start() stops it then.
                stopper?.requestStop()
            }
        case .videoOutputFailed(let error):
            emit(ControlEvent(.error, fields: ["source": .string("display"), "message": .string("\(error)")]))
        case .audioResamplingFailed(let error):
            emit(ControlEvent(.error, fields: ["source": .string("audio"), "message": .string("\(error)")]))
        case .didPlayToEnd(let item):
            emit(ControlEvent(.seam, fields: ["source": .string(item.asset.source), "passes": .integer(Int64(player.stats.snapshot.endNotifications))]))
        case .sourceLost(let item, let reason, let retryIn):
            emit(ControlEvent(.lost, fields: ["source": .string(item.asset.source), "reason": .string(reason), "retryIn": .number(retryIn)]))
        case .sourceRestored(let item, let seconds, let attempts):
            emit(ControlEvent(.back, fields: ["source": .string(item.asset.source), "seconds": .number(seconds),
                                              "attempts": .integer(Int64(attempts))]))
        case .playbackStalled(let item):
            emit(ControlEvent(.stalled, fields: ["source": .string(item.asset.source)]))
        case .timeControlStatusChanged(let status, let reason):
            emit(ControlEvent(.timeControl, fields: ["status": .string(status.rawValue), "reason": reason.map { .string($0.rawValue) } ?? .null]))
            // Waiting for a frame is still playing to whoever controls the show.
            let name = status == .paused ? "paused" : "playing"
            let changed = state.withLock { state -> Bool in
                defer { state.lastStateEvent = name }
                return state.lastStateEvent != name
            }
            if changed { emit(ControlEvent(.state, fields: ["state": .string(name)])) }
        case .playbackFinished:
            emit(ControlEvent(.finished))
        default:
            break
        }
    }

    /// What standard output carries with `[log] status_interval` (as it
    /// always has); the control socket may observe every kind.
    private static let standardOutputKinds: Set<EventSubscription.Kind> = [.item, .error, .stalled, .timeControl, .state, .finished]

    /// Sends `event` to standard output (with `[log] status_interval`) and to the socket's observers.
    func emit(_ event: ControlEvent) {
        let (eventsOn, socket, feeds, fleet) = state.withLock { state in
            if event.kind == .error {
                var fields = event.fields
                fields["at"] = .string(Date().formatted(.iso8601))
                state.recentErrors = Array((state.recentErrors + [.object(fields)]).suffix(Self.recentErrorCount))
            }
            return (state.applied.log.statusInterval > 0, state.socket, Array(state.feeds.values), state.fleet)
        }
        if eventsOn, Self.standardOutputKinds.contains(event.kind) { events.post(event) }
        socket?.broadcast(event)
        fleet?.publish(event)
        for feed in feeds { feed.push(event) }
    }

    /// Errors the management page lists.
    static let recentErrorCount = 10
}

extension ControlCommand {
    /// The check `MarqueeConfiguration` runs on each button's action.
    public static let validate: MarqueeConfiguration.ActionValidator = { text in
        do throws(ControlError) {
            _ = try ControlCommand(parsing: text)
            return nil
        } catch {
            return error.message
        }
    }
}
