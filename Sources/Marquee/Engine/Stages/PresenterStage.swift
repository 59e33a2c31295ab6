import FoundationEssentials
import MarqueeFFmpeg
import MarqueeOverlays

/// The presenter stage: shows each frame when the master clock says it is
/// due, drops frames that are too late, and leads segment changes for video.
/// Its waits are deadlines: a frame's due time, the last frame's end, the
/// audio clock's start; otherwise it sleeps until a frame or a command comes.
final class PresenterStage: EngineStage {
    let name = "present"
    unowned let engine: Engine
    let signal: WakeSignal
    let output: (any VideoOutput)?
    /// The output's scan-out side, asked for once.
    let scanOut: (any ScanOutOutput)?
    private let converter = PixelConverter()
    /// Blends the frames of a fade (`TimelineFrame.visibility`); nil under a cut.
    private let fader: PictureFader?
    var local = Local()
    private var playingBefore = false
    /// The screen power the output was last switched to.
    private var screenLit = true
    /// When time last stopped to let a network item's buffer fill.
    var bufferingSince: HostTime?
    /// Wall-clock sync: the last correction asked for (when, and the serial
    /// it got once its first frame is up), and how far ahead of the wall
    /// clock the next one aims (what the last took, with room).
    var wallCorrection: (asked: HostTime, serial: Int?)?
    var wallCorrectionLead = PresenterStage.shortestCorrectionLead
    /// The wall schedule followed, as read with the rest of the state at each step.
    var wallSchedule: WallSchedule?
    /// The last video output error reported, so a repeating one is said once.
    private var lastOutputError: String?
    /// The splash picture (or its background) as shown, until a frame replaces it.
    var splashPicture: VideoFrame?
    private var splashDone = false
    /// What the last frame said about its picture, so `stats.picture` is
    /// rebuilt only when it changes.
    private var lastPicture: PictureKey?
    /// The engine's `overlayVersion` the picture up was drawn with.
    private var drawnOverlayVersion = 0
    /// `Player.showText`'s text as the engine last said, and until when the
    /// picture up shows it (drawn again without it then, when paused).
    private var osd: (text: String, until: HostTime)?
    private var osdShownUntil: HostTime?
    /// Draws `osd`; made at its first use.
    private lazy var osdText: TextOverlay? = try? TextOverlay(text: "", style: Self.osdStyle)
    /// Timeline positions of the latest dropped frames, and of the latest
    /// frames held past their duration (with how long, ms), for the seam record.
    private var recentDrops: [Double] = []
    private var recentHolds: [(timeline: Double, ms: Double)] = []
    /// The newest seam's record stays open until this timeline position:
    /// drops and holds after the seam are added to it.
    private var seamOpenUntil: Double?
    /// How much timeline either side of a seam its record covers.
    static let seamWindow = 0.5

    private struct PictureKey: Equatable {
        var width, height: Int
        var sampleAspect: Double
        var orientation: Orientation
        var colour: ColourDescription
        var filters: PictureFilters

        init(_ frame: VideoFrame) {
            (width, height, sampleAspect, orientation, colour) = (frame.width, frame.height, frame.sampleAspect, frame.orientation, frame.colour)
            filters = frame.filters
        }

        var description: String {
            var parts = ["\(width)x\(height)"]
            if abs(sampleAspect - 1) > 0.001 { parts.append("pixel aspect \((sampleAspect * 1000).rounded() / 1000)") }
            parts.append(orientation.description)
            parts.append(colour.applied(width: width, height: height))
            if !filters.isNone { parts.append(filters.description) }
            return parts.joined(separator: ", ")
        }
    }

    /// How often an output that keeps a display (`ScanOutOutput.maintain`)
    /// is looked after while nothing is shown.
    static let maintainInterval: Duration = .seconds(1)
    /// How long video waits for the audio clock to start before it goes on alone.
    static let audioStartLimit: Duration = .milliseconds(500)

    /// State that starts over with each serial (a seek), but for `last`.
    struct Local {
        var serial = -1
        var pending: StageEntry<TimelineFrame>?
        var last: (frame: TimelineFrame, display: HostTime, audioWritten: Int)?
        var firstAfterStart = true
        /// Untimed mode: where the timeline was anchored to the host clock.
        var untimedAnchor: (timeline: Double, host: HostTime)?
        /// When we began waiting for the audio clock to start.
        var audioWaitSince: HostTime?
        /// A stall was reported and nothing has been presented since.
        var stalled = false
        /// The end came: the last frame runs its time until this host time.
        var finishingAt: HostTime?
        var nextMaintain: HostTime?
    }

    init(engine: Engine) {
        self.engine = engine
        signal = engine.signals.presenter
        output = engine.configuration.videoOutput
        scanOut = output as? any ScanOutOutput
        fader = if case .fade(_, let rgb) = engine.configuration.transition { PictureFader(rgb: rgb) } else { nil }
    }

    /// The health check's view of this stage (`StageHeartbeat`).
    private lazy var heartbeat = engine.heartbeats.first { $0.name == name }

    func step(now: HostTime) -> StageWake {
        // The very first thing on the display, before any item's frame: at
        // the first play, which is also when the source opens the first item
        // (and after the caller has subscribed to the events it posts).
        if let splash = engine.configuration.splash, !splashDone, engine.state.withLock({ $0.playing }) {
            splashDone = true
            showSplash(splash, now: now)
        }
        let wake = advance(now: now)
        // A frame waiting for its time, or the last one running its time, is work scheduled: nothing is late yet.
        heartbeat?.setWorkScheduled(local.pending != nil || local.finishingAt != nil)
        return wake
    }

    private func advance(now: HostTime) -> StageWake {
        let (stopped, serial, playing, rate, buffering, screenOn, overlayVersion, osd, wall) = engine.state.withLock {
            // Backwards the timeline still runs forwards, at the rate's speed.
            ($0.stopped, $0.serial, $0.playing, abs($0.rate), $0.buffering, $0.screenOn, $0.overlayVersion, $0.osd, $0.wall)
        }
        if stopped { return .stop }
        wallSchedule = wall
        self.osd = osd
        if overlayVersion != drawnOverlayVersion {
            drawnOverlayVersion = overlayVersion
            // Playing, the next frame has them; paused, the picture up is drawn
            // again, unless a seek's first frame is on its way (it has them).
            // A frame taken from the queue before the pause waits for play.
            if !playing, screenOn, !local.firstAfterStart { redrawLastPicture(now: now) }
        }
        if serial != local.serial {
            let pending = local.pending.flatMap { $0.serial >= serial ? $0 : nil }
            local = Local(serial: serial, pending: pending, last: local.last)
        }
        // Time stands still while paused and while a network item's buffer fills.
        let running = playing && !buffering
        if running != playingBefore {
            playingBefore = running
            engine.clock.setPaused(!running, at: now)
            local.untimedAnchor = nil
        }
        if screenOn != screenLit { switchScreen(on: screenOn) }
        // Off (and so paused): nothing is presented, flipped or maintained
        // until a command raises the signal; a frame after a seek or a
        // step waits for the screen.
        guard screenOn else { return .signal }
        if playing, buffering { return waitForBuffer(now: now) }
        if playing, let item = ranDry(), startBuffering(stalled: item, now: now) { return .now }
        if let finishingAt = local.finishingAt {
            guard now >= finishingAt else { return .at(finishingAt) }
            local.finishingAt = nil
            finishVideo(serial: serial)
            return .now
        }
        // Paused, the first frame after a seek is still shown (scrubbing).
        guard playing || local.firstAfterStart else { return idle(now: now) }
        if local.pending == nil { local.pending = engine.videoQueue.pop() }
        guard let entry = local.pending else { return starving(now: now) }
        // Older serial: stale, drop it. Newer: the state read above is
        // already out of date; step again to read it.
        guard entry.serial == serial else {
            if entry.serial < serial { local.pending = nil }
            return .now
        }
        switch entry {
        case .end:
            local.pending = nil
            if let last = local.last, !engine.configuration.untimed {
                // Let the last frame run its time, then report.
                local.finishingAt = now + .nanoseconds(Int64(last.frame.duration / rate * 1e9))
            } else {
                finishVideo(serial: serial)
            }
            return .now
        case .media(let frame):
            guard let due = schedule(frame, now: now, playing: playing, rate: rate) else {
                local.pending = nil
                return .now
            }
            return .at(due)
        }
    }

    /// Switches the output's screen; one that cannot is reported (once
    /// while it repeats) and its screen is taken as switched, so a refusal
    /// is not retried at every step. On, the display is looked after at once.
    private func switchScreen(on: Bool) {
        screenLit = on
        local.nextMaintain = nil
        do {
            try (output as? any ScreenPowerOutput)?.setScreenPower(on)
        } catch {
            reportOutputError(error)
        }
    }

    /// Nothing to show (paused, finished): keep the display up, else sleep
    /// until told. An untimed run has no time to keep it up in.
    func idle(now: HostTime) -> StageWake {
        guard let scanOut, !engine.configuration.untimed else { return .signal }
        // show-text's time is up over a paused picture: drawn again without it.
        if let until = osdShownUntil, now >= until { redrawLastPicture(now: now) }
        let textGoes = osdShownUntil
        if let due = local.nextMaintain, now < due { return .at(min(due, textGoes ?? due)) }
        scanOut.maintain()
        if scanOut.needsPicture { redrawLastPicture(now: now) }
        local.nextMaintain = now + Self.maintainInterval
        return .at(min(now + Self.maintainInterval, textGoes ?? now + Self.maintainInterval))
    }

    /// Nothing to show while playing: the buffer is empty. Reported once per
    /// stall (the source is behind: a slow network or a slow decode).
    private func starving(now: HostTime) -> StageWake {
        let idleWake = idle(now: now)
        guard let last = local.last, !local.stalled, !local.firstAfterStart, !engine.configuration.untimed else { return idleWake }
        let item = last.frame.segment.item
        if startBuffering(stalled: item, now: now) { return .now }
        item.update {
            $0.isPlaybackBufferEmpty = true
            $0.isPlaybackLikelyToKeepUp = false
        }
        // A short gap in a real-time run is normal between decodes; only a frame's worth of starvation is a stall.
        let stallAt = last.display + .nanoseconds(Int64(last.frame.duration * 2e9))
        guard now > stallAt else { return Self.earlier(idleWake, .at(stallAt)) }
        local.stalled = true
        engine.state.withLock { $0.stalled = true }
        engine.post(.playbackStalled(item))
        engine.refreshTimeControl()
        return idleWake
    }

    static func earlier(_ a: StageWake, _ b: StageWake) -> StageWake {
        switch (a, b) {
        case (.at(let x), .at(let y)): .at(min(x, y))
        case (.signal, _): b
        default: a
        }
    }

    /// Presents `frame` if it is due (or drops it if late). Returns the host
    /// time to look again when it must wait, nil when the frame is done with.
    private func schedule(_ frame: TimelineFrame, now: HostTime, playing: Bool, rate: Double) -> HostTime? {
        var target = now
        if engine.configuration.untimed {
            let anchor = local.untimedAnchor ?? (frame.timeline, now)
            local.untimedAnchor = anchor
            target = anchor.host + .nanoseconds(Int64((frame.timeline - anchor.timeline) / rate * 1e9))
        } else if playing, rate == 1, let wall = wallSchedule, let timing = wallTiming(of: frame, schedule: wall, now: now) {
            switch timing {
            case .skip: return nil
            case .waitUntil(let deadline): return deadline
            case .presentAt(let host): target = host
            }
        } else if local.firstAfterStart || !playing {
            if !frame.segment.hasAudio { engine.clock.set(position: frame.timeline, at: now, serial: frame.serial, fromDevice: false) }
        } else {
            let position: Double
            switch masterPosition(for: frame, now: now) {
            case .position(let reading): position = reading
            case .waitUntil(let deadline): return deadline
            }
            let refresh = output?.refreshInterval?.secondsDouble
            // A sound device's clock drifts from the host's: look at it again
            // at least every `maximumWait`. A clock on the host's own time (no
            // audio, or the device stopped between items) can be waited on in full.
            let limit = engine.clock.followsDevice(serial: frame.serial) ? FrameTiming.maximumWait : .infinity
            // The end marker behind a frame is not a later frame: the last one is shown, however late.
            let isLast = if case .media = engine.videoQueue.first { false } else { true }
            let decision = FrameTiming.decide(pts: frame.timeline, duration: frame.duration, clock: position, rate: rate,
                                              refreshInterval: refresh, isLastQueued: isLast, waitLimit: limit)
            switch decision {
            case .drop:
                engine.stats.update { $0.framesDropped += 1 }
                noteDrop(at: frame.timeline)
                return nil
            case .present(let lead):
                // Aim half a refresh early so the vblank it lands on is the
                // one nearest its due time; hand it over earlier still where
                // the output needs it so (a display gathering several layers).
                let margin = (refresh ?? 0.002) / 2
                let early = output?.handoverLead.secondsDouble ?? 0
                if lead > margin + early { return now + .nanoseconds(Int64((lead - margin - early) * 1e9)) }
                target = now + .nanoseconds(Int64(max(0, lead - margin) * 1e9))
            }
        }
        present(frame, at: target, rate: rate)
        return nil
    }

    private enum MasterReading {
        case position(Double)
        case waitUntil(HostTime)
    }

    /// The master clock: the audio clock when this segment has audio, else
    /// the monotonic clock anchored at the last frame. While waiting for
    /// audio to start (up to a limit, after which video goes on alone), the
    /// audio stage raises this stage's signal when its first reading is in.
    private func masterPosition(for frame: TimelineFrame, now: HostTime) -> MasterReading {
        if let position = engine.clock.position(at: now, serial: frame.serial) {
            local.audioWaitSince = nil
            return .position(position)
        }
        let since = local.audioWaitSince ?? now
        local.audioWaitSince = since
        guard frame.segment.hasAudio, now - since < Self.audioStartLimit else {
            engine.clock.set(position: frame.timeline, at: now, serial: frame.serial, fromDevice: false)
            return .position(frame.timeline)
        }
        return .waitUntil(since + Self.audioStartLimit)
    }

    private func present(_ timed: TimelineFrame, at target: HostTime, rate: Double) {
        var display = target
        var frame = timed
        do {
            (display, frame.frame) = try draw(frame.frame, visibility: frame.visibility, captions: Self.captions(of: frame), at: target)
        } catch {
            // The output keeps its last frame; count it, say why once, go on with the next one.
            engine.stats.update { $0.framesDropped += 1 }
            reportOutputError(error)
            return
        }
        recordPresented(frame, display: display, rate: rate)
    }

    /// The captions of `frame`'s item, if it has them ready, and the frame's millisecond in the item.
    static func captions(of frame: TimelineFrame) -> (CaptionRenderer, Int64)? {
        frame.segment.item.captionRenderer.map { ($0, Int64((frame.itemTime.seconds * 1000).rounded())) }
    }

    /// Puts `picture` on the output at `target` (blended toward the fade's
    /// colour below full `visibility`): zero copy where the output scans a
    /// dmabuf frame out as it is, else converted into its buffer or format.
    /// Returns when it became visible, and the picture as drawn (a dmabuf
    /// frame downloaded, a fading one blended). Without an output, nothing.
    /// - Parameter captions: drawn over the picture where it is rendered
    ///   into the output's buffer, at that millisecond of its item.
    func draw(_ picture: VideoFrame, visibility: Double, captions: (CaptionRenderer, Int64)? = nil,
              at target: HostTime) throws -> (HostTime, VideoFrame) {
        guard output != nil else { return (target, picture) }
        let drawn = try drawOnOutput(picture, visibility: visibility, captions: captions, at: target)
        // The screen's size read here, on the output's own thread.
        let onScreen = PictureOnScreen(frame: drawn.1, screenSize: output?.screenSize)
        engine.onScreen.withLock { $0 = onScreen }
        return drawn
    }

    private func drawOnOutput(_ picture: VideoFrame, visibility: Double, captions: (CaptionRenderer, Int64)?,
                              at target: HostTime) throws -> (HostTime, VideoFrame) {
        guard let output else { return (target, picture) }
        var picture = picture
        // A cue or a text up is drawn into the output's buffer: that frame is not scanned out as decoded.
        let cue = captions.flatMap { $0.0.script.hasCue(at: $0.1) ? $0 : nil }
        let text = osd.flatMap { $0.until > target ? $0 : nil }
        osdShownUntil = nil
        if let hardware = picture.storage as? any DMABufStorage {
            if visibility >= 1, cue == nil, text == nil, let scanOut, scanOut.canScanOut(picture, dmabuf: hardware.dmabuf) {
                // Zero copy: the output imports the dmabufs and keeps the frame until scanout ends.
                return (try scanOut.present(picture, at: target), picture)
            }
            picture = try hardware.download(picture)
            engine.stats.update { $0.framesDownloaded += 1 }
        }
        // Only inside a fade: a copy of the frame, blended toward the colour.
        if visibility < 1, let fader { picture = try fader.faded(picture, visibility: visibility) }
        guard let scanOut else {
            if let (renderer, milliseconds) = cue, output.acceptedFormats.first == .xrgb8888, picture.pixelFormat != .xrgb8888 {
                // Converted into a buffer of its own, which the captions are drawn into.
                let converted = try converter.convert(picture, to: .xrgb8888)
                let plane = converted.planes[0]
                renderer.draw(into: MutableImagePlane(base: UnsafeMutableRawPointer(mutating: plane.base), bytesPerRow: plane.bytesPerRow,
                                                      rows: plane.rows),
                              size: PixelSize(width: converted.width, height: converted.height), at: milliseconds)
                return (try output.present(converted, at: target), picture)
            }
            return (try output.present(convertIfNeeded(picture, for: output), at: target), picture)
        }
        return (try scanOut.render(picture, with: converter, at: target) { rendered in
            guard rendered.format == .xrgb8888, let plane = rendered.planes.first else { return }
            let size = PixelSize(width: rendered.width, height: rendered.height)
            if let (renderer, milliseconds) = cue { renderer.draw(into: plane, size: size, at: milliseconds) }
            if let text { drawText(text.text, into: plane, size: size, at: target, until: text.until) }
        }, picture)
    }

    /// show-text's look: mpv's OSD, white on a dark box.
    static let osdStyle = TextStyle(size: 48, color: 0xffffff, outline: 0, box: 0x202020, alignment: 2)

    /// `text` along the bottom of the picture (`size`) in `plane`, as the
    /// display owner's show-text draws it along the bottom of the screen.
    private func drawText(_ text: String, into plane: MutableImagePlane, size: PixelSize, at target: HostTime, until: HostTime) {
        guard let osdText else { return }
        let band = min(136, size.height / 4) & ~1, margin = min(24, size.height / 20)
        guard band >= 2 else { return }
        let top = max(0, size.height - band - margin)
        osdText.text = text
        _ = osdText.draw(into: MutableImagePlane(base: plane.base + top * plane.bytesPerRow, bytesPerRow: plane.bytesPerRow, rows: band),
                         size: PixelSize(width: size.width, height: band), at: target)
        osdShownUntil = until
    }

    /// An output error is said once while it repeats.
    func reportOutputError(_ error: any Error) {
        let message = "\(error)"
        guard lastOutputError != message else { return }
        lastOutputError = message
        engine.post(.videoOutputFailed(error))
    }

    /// Bookkeeping once `frame` is on screen: seams, stats, observers, buffer state.
    private func recordPresented(_ frame: TimelineFrame, display: HostTime, rate: Double) {
        let audioClock = frame.segment.hasAudio ? engine.clock.position(at: display, serial: frame.serial) : nil
        let written = engine.stats.snapshot.audioFramesWritten
        if let last = local.last, last.frame.serial == frame.serial {
            let held = max((display - last.display).secondsDouble - last.frame.duration / rate, 0) * 1000
            // Rounding to the display's refresh is pacing, not a hold.
            let hold = max(held - (output?.refreshInterval?.secondsDouble ?? 0) * 1000, 0)
            if last.frame.segment.id != frame.segment.id {
                let windowStart = frame.timeline - Self.seamWindow
                var record = SeamRecord(fromItem: engine.itemIndex(last.frame.segment.item), toItem: engine.itemIndex(frame.segment.item),
                                        gapMs: held, audioFramesAcross: written - last.audioWritten,
                                        framesDropped: recentDrops.filter { $0 >= windowStart }.count)
                record.longestHoldMs = recentHolds.filter { $0.timeline >= windowStart }.map(\.ms).reduce(hold, max)
                engine.stats.recordSeam(record)
                seamOpenUntil = frame.timeline + Self.seamWindow
                recentDrops.removeAll()
                recentHolds.removeAll()
                engine.crossSeam(from: last.frame.segment, to: frame.segment)
            } else if let until = seamOpenUntil, frame.timeline <= until {
                engine.stats.updateLastSeam { $0.longestHoldMs = max($0.longestHoldMs, hold) }
            } else {
                seamOpenUntil = nil
                if hold > 0 { recentHolds.append((last.frame.timeline, hold)) }
                if recentHolds.count > 64 { recentHolds.removeFirst(recentHolds.count - 64) }
            }
        }
        let wall = wallOffset(of: frame, shownAt: display)
        engine.stats.recordPresented(PresentationRecord(
            item: engine.itemIndex(frame.segment.item), pass: frame.segment.pass, pts: frame.itemTime.seconds,
            displayTime: display.seconds, avOffsetMs: audioClock.map { ($0 - frame.timeline) * 1000 },
            checksum: engine.stats.keepsLog ? frame.frame.checksum() : 0, playlistIndex: wall?.index, wallOffsetMs: wall?.offsetMs,
            wallTime: wall?.wallTime))
        engine.presented(frame.segment, itemTime: frame.itemTime, timeline: frame.timeline, serial: frame.serial)
        let picture = PictureKey(frame.frame)
        if picture != lastPicture {
            lastPicture = picture
            engine.stats.update { $0.picture = picture.description }
        }
        if local.firstAfterStart {
            engine.observers.playbackStateChanged(at: frame.itemTime)
            _ = startBuffering(stalled: nil, now: display)
        }
        local.last = (frame, display, written)
        local.firstAfterStart = false
        local.stalled = false
        updateBufferState(of: frame.segment.item)
    }

    /// A frame was dropped: counted into an open seam record, or kept for the next seam's.
    func noteDrop(at timeline: Double) {
        if let until = seamOpenUntil, timeline <= until {
            engine.stats.updateLastSeam { $0.framesDropped += 1 }
            return
        }
        recentDrops.append(timeline)
        if recentDrops.count > 64 { recentDrops.removeFirst(recentDrops.count - 64) }
    }

    /// End of playback on the video side, once the last frame has run its time.
    private func finishVideo(serial: Int) {
        try? output?.flush()
        let segment = local.last?.frame.segment
        // A segment without video is ended by the audio writer.
        guard segment?.hasVideo ?? true else { return }
        engine.stageFinished(.video, serial: serial, segment: segment)
    }

    private func convertIfNeeded(_ frame: VideoFrame, for output: any VideoOutput) throws -> VideoFrame {
        if output.acceptedFormats.contains(frame.pixelFormat) { return frame }
        guard let format = output.acceptedFormats.first else { return frame }
        return try converter.convert(frame, to: format)
    }
}
