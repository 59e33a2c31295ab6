import FoundationEssentials
import Marquee
import MarqueeConfig
import MarqueeControl
import Synchronization

/// The running `QueuePlayer` as the control commands see it. Seeks are
/// started and not awaited (a command must not stall the channel it came
/// on); the player reports a seek's target as its time until the frame is
/// on screen, so `seek +5` twice in a row moves 10 s.
final class QueuePlayerTarget: PlaybackTarget {
    let player: QueuePlayer
    /// The display and its mode, or the output used instead (`get display`).
    let display: String
    /// What a followed schedule shows and when it changes (set once it is followed).
    let scheduleSummary = Mutex<(@Sendable () -> PlaybackStatus.ScheduleSummary?)?>(nil)
    /// The play log's recorder: an item a command moves on from ends as `command`.
    let recorder: PlayRecorder?
    /// The layout's overlays, for `show-text` and `overlay`; nil for a single full-screen output.
    let overlays: ShowOverlays?
    /// The languages `captions on` shows captions in: `[captions] languages`, or the last `captions LANG`.
    private let captionLanguages: Mutex<[String]>

    init(player: QueuePlayer, display: String, recorder: PlayRecorder?, overlays: ShowOverlays?, captionLanguages: [String]) {
        self.captionLanguages = Mutex(captionLanguages)
        self.player = player
        self.display = display
        self.recorder = recorder
        self.overlays = overlays
    }

    func showText(_ text: String, seconds: Double) throws(ControlError) {
        // The single full-screen output: the presenter draws it into the picture.
        guard let overlays else { return player.showText(text, seconds: seconds) }
        try overlays.showText(text, seconds: seconds)
    }

    func setOverlay(_ name: String, visible: Bool) throws(ControlError) {
        guard let overlays else { throw Self.noOverlays("overlay") }
        try overlays.setVisible(name, visible)
    }

    func setCaptions(_ choice: ControlCommand.CaptionsChoice) {
        let criteria: MediaSelectionCriteria? = switch choice {
        case .off: nil
        case .on: MediaSelectionCriteria(preferredLanguages: captionLanguages.withLock { $0 })
        case .language(let code): MediaSelectionCriteria(preferredLanguages: captionLanguages.withLock { $0 = [code]; return $0 })
        }
        player.setMediaSelectionCriteria(criteria, forMediaCharacteristic: .legible)
    }

    /// `[captions]` as a reload finds it.
    func applyCaptions(_ captions: MarqueeConfiguration.Captions) {
        captionLanguages.withLock { $0 = captions.languages }
        setCaptions(captions.show ? .on : .off)
    }

    /// The single full-screen output (no `[[layer]]` or `[[overlay]]`) has no overlays to name.
    private static func noOverlays(_ command: String) -> ControlError {
        ControlError("\(command): this show has no overlays; a file with [[overlay]] or [[layer]] tables draws them")
    }

    var status: PlaybackStatus {
        let (items, position) = player.playlist
        let item = player.currentItem
        let duration = item?.duration
        let state: PlaybackStatus.State = if position == nil {
            .finished
        } else if player.timeControlStatus == .paused {
            player.status == .failed ? .failed : .paused
        } else {
            .playing
        }
        // While paused, the rate play resumes at.
        let rate = player.timeControlStatus == .paused ? player.defaultRate : player.rate
        let stats = player.stats.snapshot
        var status = PlaybackStatus(state: state, index: position, count: items.count, source: item?.asset.source,
                                    time: player.currentTime().seconds, duration: duration?.isNumeric == true ? duration!.seconds : nil,
                                    rate: rate, volume: Double(player.volume), muted: player.isMuted, loop: player.loopMode,
                                    picture: stats.picture)
        status.waiting = player.reasonForWaitingToPlay?.rawValue
        status.bufferEmpty = item?.isPlaybackBufferEmpty ?? false
        status.likelyToKeepUp = item?.isPlaybackLikelyToKeepUp ?? true
        status.stalls = stats.stalls
        status.screenOn = player.isScreenOn
        status.schedule = scheduleSummary.withLock { $0 }?()
        return status
    }

    func play() { player.play() }

    func pause() { player.pause() }

    func seek(to seconds: Double) {
        _ = player.startSeek(to: MediaTime(seconds: seconds, preferredTimescale: 1000), exact: true)
    }

    /// `next`, `prev`, `goto`: the play log says the item on screen ended by a command.
    func playItem(at index: Int) -> Bool {
        // Set before the player acts: it reports the change on another thread.
        recorder?.nextEndReason = .command
        let played = player.playItem(at: index)
        if !played { recorder?.nextEndReason = nil }
        return played
    }

    func setLoopMode(_ mode: LoopMode) {
        player.loopMode = mode
        // A pass limit from --loops belongs to the loop mode it was given with.
        if mode != .item { player.loopPasses = nil }
    }

    /// A forward rate is also the one `play` resumes at after a pause.
    func setRate(_ rate: Double) throws(ControlError) {
        if rate < 0, let item = player.currentItem, item.status == .readyToPlay, let refusal = item.reverseRefusal {
            throw ControlError("rate: \(item.asset.source) cannot play backwards: \(refusal)")
        }
        if rate > 0 { player.defaultRate = rate }
        player.rate = rate
    }

    func step(by count: Int) throws(ControlError) {
        guard let item = player.currentItem else { throw ControlError("step: nothing is playing") }
        if count < 0, let refusal = item.reverseRefusal {
            throw ControlError("step: \(item.asset.source) cannot step back: \(refusal)")
        }
        guard count < 0 || item.canStepForward else { throw ControlError("step: \(item.asset.source) has no frames to step through") }
        _ = player.step(byCount: count)
    }

    func setVolume(_ volume: Double) { player.volume = Float(volume) }

    func setMuted(_ muted: Bool) { player.isMuted = muted }

    func setScreenPower(on: Bool) { player.setScreenPower(on: on) }

    func value(of property: PlayerProperty) -> JSONValue {
        if let value = statusValue(of: property) { return value }
        switch property {
        case .playlist:
            let (items, position) = player.playlist
            return .array(items.enumerated().map { index, item in
                var fields: [String: JSONValue] = ["index": .integer(Int64(index + 1)), "source": .string(item.asset.source),
                                                   "current": .bool(index == position)]
                if let seconds = item.imageDuration { fields["duration"] = .number(seconds) }
                return .object(fields)
            })
        case .stats: return Self.json(player.stats.snapshot)
        case .display: return .string(display)
        case .decoder:
            let stats = player.stats.snapshot
            return .object(["codec": stats.decoder.map(JSONValue.string) ?? .null, "hwdec": stats.hwdec.map(JSONValue.string) ?? .null])
        default: return .null
        }
    }

    /// The statistics as `--stats` writes them (less the resource samples).
    private static func json(_ snapshot: PlaybackStats.Snapshot) -> JSONValue {
        guard let data = try? JSONEncoder().encode(snapshot),
              let value = try? JSONDecoder().decode(JSONValue.self, from: data) else { return .null }
        return value
    }
}
