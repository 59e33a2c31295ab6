import FoundationEssentials
import MarqueeFFmpeg

/// The source stage: opens items, reads and decodes them a packet per step,
/// and feeds the queues, looking ahead across loop passes and playlist
/// items. What it decoded but could not queue yet waits in `pending`; the
/// stage then waits for its signal, which a pop from a full queue raises.
/// A picture is not decoded while the video queue has no room: its packets
/// wait compressed in the `ItemSource` and the sound beside them is read on.
final class SourceStage: EngineStage {
    let name = "source"
    private unowned let engine: Engine
    let signal: WakeSignal
    private var source: ItemSource? {
        didSet { engine.state.withLock { $0.readAhead = source?.readAhead } }
    }
    private var serial = -1
    private var segmentID = 0
    private enum Pending {
        case decoded(ItemSource.Output)
        /// Nothing follows on this serial, for the video or the audio queue;
        /// the last pass ended at this timeline position.
        case end(video: Bool, timeline: Double?)

        var isVideo: Bool {
            switch self {
            case .decoded(.video): true
            case .decoded(.audio): false
            case .end(let video, _): video
            }
        }
    }

    /// Decoded output (and the end markers) in order, not yet in their queues.
    private var pending: [Pending] = []
    /// A network item that went away, waited for on the retry schedule.
    private var outage: SourceOutage? {
        didSet { if (oldValue == nil) != (outage == nil) { engine.state.withLock { $0.waitingForSource = outage != nil } } }
    }
    /// A step being read: a step back from the first frame finds nothing
    /// before it, and shows the frame it started from instead.
    private var stepping: StartRequest?
    /// Set by `openPlayable` when it gave up on a network item the show waits for.
    private var unavailable: (item: PlayerItem, reason: String)?
    /// Items that showed nothing on their latest passes; broken ones are skipped.
    private var emptyPasses = EmptyPassLedger()
    private var random = SystemRandomNumberGenerator()
    /// The rate's size as of this step: the video queue's limit is real time,
    /// so a frame counts its duration at the speed it will be shown.
    private var speed = 1.0
    /// The size of the last frame queued, in the video queue's terms: the
    /// next is expected to be like it (`videoRoom`).
    private var lastFrame: (bytes: Int, seconds: Double)?
    /// How the source keeps up while the decoder has slice threads alone.
    private var pace = DecodePace()
    /// The decoder fell behind on slices alone: every item opened from then
    /// on, in this play, gets frame threads too.
    private var threads: DecoderThreads

    init(engine: Engine) {
        self.engine = engine
        signal = engine.signals.source
        threads = engine.configuration.decoderThreads
    }

    private enum Command {
        case stop
        case start(StartRequest)
        case run(serial: Int, speed: Double)
    }

    func step(now: HostTime) -> StageWake {
        let command = engine.state.withLock { state -> Command in
            if state.stopped { return .stop }
            if let start = state.start {
                state.start = nil
                return .start(start)
            }
            // Paused (rate 0) counts as 1: what is queued is for when it plays.
            return .run(serial: state.serial, speed: state.rate == 0 ? 1 : abs(state.rate))
        }
        switch command {
        case .stop:
            return .stop
        case .start(let request):
            clearPending()
            outage = nil
            start(request, now: now)
            return .now
        case .run(let current, let speed):
            self.speed = speed
            guard current == serial else {
                clearPending()
                return .signal
            }
        }
        guard flushPending() else { return .signal }
        if let outage { return retry(outage, now: now) }
        guard let reading = source else { return .signal }
        let waiting = threads.frames ? read(reading, now: now) : timedRead(reading, now: now)
        return flushPending() && !waiting ? .now : .signal
    }

    /// `read`, its work judged against the frames it made (`DecodePace`):
    /// behind, the decoder gets frame threads from the next keyframe on.
    private func timedRead(_ reading: ItemSource, now: HostTime) -> Bool {
        let clock = engine.configuration.hostClock
        let started = clock.now(), before = pending.count
        let waiting = read(reading, now: now)
        let made = pending[before...].compactMap { entry -> Double? in
            if case .decoded(.video(let frame)) = entry { frame.duration / speed } else { nil }
        }
        if pace.add(work: (clock.now() - started).secondsDouble, frames: made.count, shownFor: made.reduce(0, +)) {
            threads = threads.withFrames
            reading.useFrameThreads()
            engine.stats.update { $0.decoderFrameThreadsAdded += 1 }
        }
        return waiting
    }

    private func start(_ request: StartRequest, now: HostTime) {
        serial = request.serial
        segmentID += 1
        pace = DecodePace()
        if source?.item !== request.item { source = nil }
        source = openPlayable(startingWith: request.item, reusing: source)
        guard let current = source else {
            if let (item, reason) = unavailable {
                beginOutage(item, resume: item === request.item && request.time > .zero ? request.time : nil,
                            timelineStart: request.timelineStart, reason: reason, now: now)
            } else {
                endOfPlayback()
            }
            return
        }
        var time = current.item === request.item ? request.time : (request.reversed ? .positiveInfinity : .zero)
        var reversed = request.reversed
        if reversed, let refusal = current.item.reverseRefusal {
            refuseReverse(current.item, reason: refusal)
            reversed = false
            if !time.isNumeric { time = .zero }
        }
        do {
            // Nothing of this start is on screen yet: its first picture is wanted soonest. Not for a
            // network item: it waits for its forward buffer before it plays, which a picture decoded
            // ahead does not shorten (and over RTSP/UDP beside a second player, a stream with one showed
            // no frame at all, 2 runs in 3, also with the decoders opened from `CodecParameters`).
            _ = try current.start(at: time, timelineStart: request.timelineStart, segmentID: segmentID, exact: request.exact,
                                  reversed: reversed, skipFrames: request.step ?? 0,
                                  pictureAhead: !current.item.asset.isNetworkSource)
            stepping = request.step.map { _ in request }
            planFades(current, fadesIn: false)
        } catch {
            source = nil
            if waitsFor(current.item) {
                beginOutage(current.item, resume: time > .zero ? time : nil, timelineStart: request.timelineStart,
                            reason: Self.reason(error, current.item), now: now)
            } else {
                fail(current.item, error)
                endOfPlayback()
            }
        }
    }

    /// One packet, or the move to what follows at the end of a pass.
    /// True when a network item's next packet has not come yet (its
    /// read-ahead raises the stage's signal when it does), or the video
    /// queue must make room first (its pop raises it).
    private func read(_ reading: ItemSource, now: HostTime) -> Bool {
        var failure: (any Error)?
        do {
            switch try reading.step(serial: serial, videoRoom: videoRoom(), emit: { pending.append(.decoded($0)) }) {
            case .decoded: return false
            case .waiting, .videoFull: return true
            case .endOfPass: break
            }
            if let step = stepping, reading.isReversed, reading.framesSinceStart == 0 {
                stepping = nil
                _ = try reading.start(at: step.time, timelineStart: step.timelineStart, segmentID: segmentID, exact: true)
                return false
            }
            if reading.endedEarly, waitsFor(reading.item) {
                let reason = reading.isLive ? "the stream ended"
                    : "the stream ended at \(String(reading.readThrough?.seconds ?? 0, places: 1)) s of \(String(reading.media.duration.seconds, places: 1)) s"
                lose(reading, reason: reason, now: now)
                return false
            }
        } catch {
            if waitsFor(reading.item) {
                lose(reading, reason: Self.reason(error, reading.item), now: now)
                return false
            }
            failedToPlayToEnd(reading.item, error)
            failure = error
        }
        segmentID += 1
        source = following(reading, failure: failure, now: now)
        if source == nil, outage == nil { endOfPlayback(at: reading.timelineEnd) }
        return false
    }

    /// What follows a pass that ended, cleanly or in `failure` (an error
    /// concealment could not get past). Either way the pass counts toward
    /// the pass limit and its seam is reported as any other; a failed
    /// pass's item starts its next pass on flushed decoders (`restarted`),
    /// theirs being in the error's state. An item that showed nothing twice
    /// in a row is failed and skipped.
    private func following(_ reading: ItemSource, failure: (any Error)?, now: HostTime) -> ItemSource? {
        let end = reading.timelineEnd ?? engine.state.withLock { $0.timeline }
        if emptyPasses.record(reading.item, showedNothing: reading.passShowedNothing(failed: failure != nil)) {
            fail(reading.item, failure ?? PlaybackError.nothingShown(source: reading.item.asset.source))
            return next(after: reading, timelineStart: end, now: now)
        }
        if failure != nil {
            let again = successor(of: reading.item, pass: reading.pass) === reading.item ? restarted(reading, timelineStart: end) : nil
            return again ?? next(after: reading, timelineStart: end, now: now)
        }
        do {
            return try nextAfterPass(of: reading, now: now)
        } catch {
            // The pass itself played; its item could not be rewound for the next one.
            failedToPlayToEnd(reading.item, error)
            segmentID += 1
            return next(after: reading, timelineStart: end, now: now)
        }
    }

    private func failedToPlayToEnd(_ item: PlayerItem, _ error: any Error) {
        engine.post(.failedToPlayToEnd(item, error))
        engine.stats.update { $0.decodeErrors += 1 }
    }

    /// At the end of a pass: loop the same item without a flush, or drain and
    /// move to the next item, placed right after this one on the timeline.
    /// A pass whose packets the decoders rejected leaves them in the damage's
    /// state (VP9's missing references showed nothing on the next pass): its
    /// item's next pass starts on flushed decoders instead (`restarted`).
    private func nextAfterPass(of source: ItemSource, now: HostTime) throws -> ItemSource? {
        let following = successor(of: source.item, pass: source.pass)
        let repeats = following === source.item
        // Backwards, the show stays with its item: it plays it again from the end, or ends at its start.
        if source.isReversed, !repeats { return nil }
        if repeats, source.isReversed || source.passDecodeErrors == 0 {
            step(from: source.item, to: source.item)
            _ = try source.startNextPass(segmentID: segmentID)
            planFades(source, fadesIn: false)
            return source
        }
        // Video switched to software at the very end: the input was rewound, read it again.
        guard try source.drain(serial: serial, emit: { pending.append(.decoded($0)) }) else { return source }
        var end = source.timelineEnd ?? engine.state.withLock { $0.timeline }
        if repeats, let again = restarted(source, timelineStart: end) { return again }
        let between = engine.configuration.betweenItems
        if between != .cut, following != nil, !repeats {
            source.emitPause(between, audioFormat: engine.configuration.audioOutput?.format,
                             serial: serial, emit: { pending.append(.decoded($0)) })
            end += between.seconds
        }
        return next(after: source, timelineStart: end, now: now)
    }

    /// The same item's next pass, read again from its start on flushed
    /// decoders (a switch to software stays made), placed at
    /// `timelineStart`; nil when it cannot even seek back there (a damaged
    /// index): it is then opened afresh (`next`).
    private func restarted(_ source: ItemSource, timelineStart: Double) -> ItemSource? {
        do {
            _ = try source.start(at: .zero, timelineStart: timelineStart, segmentID: segmentID, pass: source.pass + 1, exact: false)
        } catch {
            return nil
        }
        step(from: source.item, to: source.item)
        planFades(source, fadesIn: false)
        return source
    }

    /// The item after `source`'s pass, opened and started at `timelineStart`.
    /// The same item again (it could not be restarted) is opened afresh, as its next pass.
    private func next(after source: ItemSource, timelineStart: Double, now: HostTime) -> ItemSource? {
        guard let following = successor(of: source.item, pass: source.pass) else { return nil }
        guard let opened = openPlayable(startingWith: following, reusing: nil) else {
            if let (item, reason) = unavailable {
                beginOutage(item, resume: nil, timelineStart: timelineStart, previous: source.item, reason: reason, now: now)
            }
            return nil
        }
        step(from: source.item, to: opened.item)
        do {
            let pass = opened.item === source.item ? source.pass + 1 : 0
            _ = try opened.start(at: .zero, timelineStart: timelineStart, segmentID: segmentID, pass: pass, exact: false)
            planFades(opened, fadesIn: opened.item !== source.item)
            return opened
        } catch {
            fail(opened.item, error)
            return nil
        }
    }

    /// The fades of the pass `source` just started, under the transition:
    /// a start the player asked for (a seek, a new item) cuts in, a pass
    /// another item follows fades out. What follows is read now, as the
    /// pass starts, since its last frames are decoded before its end is known.
    private func planFades(_ source: ItemSource, fadesIn: Bool) {
        let following = successor(of: source.item, pass: source.pass)
        source.planFades(engine.configuration.transition, fadesIn: fadesIn,
                         fadesOut: following.map { $0 !== source.item } ?? false)
    }

    private func successor(of item: PlayerItem, pass: Int = 0) -> PlayerItem? {
        engine.state.withLock { $0.cursor.successor(of: item, pass: pass, in: $0.queue) }
    }

    private func step(from item: PlayerItem, to next: PlayerItem) {
        engine.state.withLock { $0.cursor.step(from: item, to: next, in: $0.queue) }
    }

    /// Opens `item`, or the first item after it that opens: a broken item is
    /// marked failed, reported, and skipped so the show goes on (one that
    /// showed nothing twice in a row, without trying it again). A network
    /// item the show waits for (see `waitsFor`) stops the search and is left
    /// in `unavailable`, as is the first network item tried when none opens.
    private func openPlayable(startingWith item: PlayerItem, reusing existing: ItemSource?) -> ItemSource? {
        unavailable = nil
        if let existing, existing.item === item, !emptyPasses.isBroken(item) { return existing }
        var candidate: PlayerItem? = item
        var tried: [ObjectIdentifier] = []
        var firstUnavailable: (item: PlayerItem, reason: String)?
        let serial = serial
        while let current = candidate, !tried.contains(ObjectIdentifier(current)),
              engine.state.withLock({ $0.serial == serial && !$0.stopped }) {
            tried.append(ObjectIdentifier(current))
            if emptyPasses.isBroken(current) {
                candidate = successor(of: current)
                continue
            }
            do {
                return try open(current)
            } catch {
                if current.asset.isNetworkSource {
                    if firstUnavailable == nil { firstUnavailable = (current, Self.reason(error, current)) }
                    if waitsFor(current) { break }
                }
                fail(current, error)
                candidate = successor(of: current)
            }
        }
        unavailable = firstUnavailable
        return nil
    }

    private func open(_ item: PlayerItem) throws -> ItemSource {
        var opening = true
        let configuration = engine.configuration
        let source = try ItemSource(item: item, audioFormat: configuration.audioOutput?.format,
                                    videoThreads: threads, hardware: configuration.hardwareDecoding,
                                    deinterlacing: configuration.deinterlacing, network: configuration.network,
                                    imageDuration: configuration.imageDuration, screenSize: configuration.videoOutput?.screenSize,
                                    readAhead: (item.forwardBufferDuration(automatic: configuration.network.forwardBuffer), signal),
                                    readsOnForSound: !configuration.untimed, onSoftwareFallback: { [unowned self] reason in
            softwareFallback(item, reason: reason, atOpen: opening)
        })
        opening = false
        item.prepareCaptions(criteria: engine.state.withLock { $0.legibleCriteria }, report: engine.reportCaptions)
        engine.post(.itemStatusChanged(item, .readyToPlay))
        engine.setStatus(.readyToPlay)
        if let decoder = source.decoderName { engine.stats.update { $0.decoder = decoder } }
        engine.stats.update { $0.hwdec = source.decoderKind?.rawValue }
        return source
    }

    /// Whether the show waits for `item` when it is unavailable rather than
    /// moving on: a network item under `on_unavailable = "wait"`, or one with
    /// nothing else in the queue to play.
    private func waitsFor(_ item: PlayerItem) -> Bool {
        guard item.asset.isNetworkSource else { return false }
        if engine.configuration.onUnavailable == .wait { return true }
        return engine.state.withLock { state in (state.queue.items + state.queue.played).allSatisfy { $0 === item } }
    }

    /// The item cannot play backwards: it plays forwards at the speed asked for, and says why.
    private func refuseReverse(_ item: PlayerItem, reason: String) {
        let rate = engine.state.withLock { state -> Double in
            state.rate = abs(state.rate)
            state.readsBackwards = false
            return state.rate
        }
        engine.post(.reverseRefused(item, reason: reason))
        engine.post(.rateChanged(rate))
    }

    /// Video of `item` is decoded in software from now on: counted, and
    /// reported as one event (a set-up reason only the first time it occurs).
    private func softwareFallback(_ item: PlayerItem, reason: String, atOpen: Bool) {
        engine.stats.update {
            $0.hwdec = VideoDecoderKind.software.rawValue
            $0.hwdecFallbacks += 1
        }
        if atOpen, !engine.reportedFallbacks.withLock({ $0.insert(reason).inserted }) { return }
        engine.post(.videoDecodingFellBack(item, reason: reason, atSetUp: atOpen))
    }

    private func fail(_ item: PlayerItem, _ error: any Error) {
        item.markFailed(error)
        engine.state.withLock { $0.lastItemError = error }
        engine.post(.itemStatusChanged(item, .failed))
    }

    /// `reading` went away while playing: it is resumed where it was read
    /// to, as the same segment (no seam, no pass counted), once it is back.
    private func lose(_ reading: ItemSource, reason: String, now: HostTime) {
        source = nil
        // Frames and sound still inside the decoders were read before the loss: they play first.
        _ = try? reading.drain(serial: serial, emit: { pending.append(.decoded($0)) })
        beginOutage(reading.item, resume: reading.isLive ? nil : reading.resumePoint, segment: reading.lastSegment,
                    reason: reason, now: now)
    }

    /// Starts waiting for `item`: one event now, then attempts on the retry schedule.
    /// - Parameters:
    ///   - segment: the segment that was playing, which the resumed reading continues;
    ///     nil for an item that never opened (a new segment at `timelineStart` or later).
    ///   - previous: the item the show moves on from when this one opens.
    private func beginOutage(_ item: PlayerItem, resume: MediaTime?, segment: Segment? = nil, timelineStart: Double? = nil,
                             previous: PlayerItem? = nil, reason: String, now: HostTime) {
        if segment == nil { segmentID += 1 }
        let delay = retryDelay(beforeRetry: 1)
        outage = SourceOutage(item: item, resume: resume, segmentID: segment?.id ?? segmentID, pass: segment?.pass ?? 0,
                              timelineStart: segment == nil ? timelineStart : nil, previous: previous, since: now,
                              reason: reason, retryAt: now + .nanoseconds(Int64(delay * 1e9)))
        engine.stats.update { $0.sourceOutages += 1 }
        engine.post(.sourceLost(item, reason: reason, retryIn: delay))
    }

    /// Tries the lost item again when its time has come: back, it goes on
    /// where it was lost, placed at the clock's position (the timeline ran on
    /// meanwhile); still gone, the next attempt is scheduled.
    private func retry(_ waiting: SourceOutage, now: HostTime) -> StageWake {
        guard now >= waiting.retryAt else { return .at(waiting.retryAt) }
        var lost = waiting
        lost.attempts += 1
        engine.stats.update { $0.sourceRetries += 1 }
        do {
            let opened = try open(lost.item)
            let planned = lost.timelineStart ?? -Double.infinity
            let position = engine.clock.position(at: now, serial: serial) ?? engine.state.withLock { $0.timeline }
            _ = try opened.start(at: lost.resume ?? .zero, timelineStart: max(planned, position), segmentID: lost.segmentID,
                                 pass: lost.pass, exact: lost.resume != nil)
            if let previous = lost.previous { step(from: previous, to: lost.item) }
            // A resumed pass goes on as it was; one that never opened follows its predecessor.
            planFades(opened, fadesIn: lost.previous.map { $0 !== lost.item } ?? false)
            source = opened
            outage = nil
            engine.post(.sourceRestored(lost.item, seconds: (now - lost.since).secondsDouble, attempts: lost.attempts))
            return .now
        } catch {
            let delay = retryDelay(beforeRetry: lost.attempts + 1)
            lost.retryAt = now + .nanoseconds(Int64(delay * 1e9))
            outage = lost
            return .at(lost.retryAt)
        }
    }

    /// `error` without the source it names first (the event names the item).
    private static func reason(_ error: any Error, _ item: PlayerItem) -> String {
        let text = "\(error)"
        let prefix = item.asset.source + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }

    private func retryDelay(beforeRetry attempt: Int) -> Double {
        engine.configuration.retry.delay(beforeRetry: attempt, unit: Double.random(in: -1...1, using: &random))
    }

    /// Moves pending output into the queues, each queue's entries in order.
    /// A full queue keeps its own entries pending until a pop raises the
    /// signal; the other queue's go on, so audio decoded behind a frame that
    /// does not fit yet (the end of a pass, say) reaches the audio writer in
    /// time. False when anything is left.
    private func flushPending() -> Bool {
        var blocked = (video: false, audio: false)
        var left: [Pending] = []
        for entry in pending {
            let isVideo = entry.isVideo
            if isVideo ? blocked.video : blocked.audio {
                left.append(entry)
            } else if !enqueue(entry) {
                if isVideo { blocked.video = true } else { blocked.audio = true }
                left.append(entry)
            }
        }
        pending = left
        return left.isEmpty
    }

    /// Whether the video queue takes a frame like the last now; when not,
    /// its next pop raises this stage's signal. A picture decoded without
    /// room would wait in `pending`: one more than the queue's limit lets
    /// real time hold (12 MB at 4K).
    private func videoRoom() -> Bool {
        guard let lastFrame else { return true }
        return engine.videoQueue.hasRoom(bytes: lastFrame.bytes, seconds: lastFrame.seconds)
    }

    private func enqueue(_ output: Pending) -> Bool {
        switch output {
        case .decoded(.video(let frame)):
            let size = (bytes: frame.frame.byteCount, seconds: frame.duration / speed)
            lastFrame = size
            return engine.videoQueue.push(.media(frame), bytes: size.bytes, seconds: size.seconds)
        case .decoded(.audio(let audio)):
            guard engine.configuration.audioOutput != nil else { return true }
            // Audio may run past its bound while the presenter has no frame at
            // all: a paused seek (the audio writer is not consuming) must still
            // get its first picture, whatever the file's interleaving.
            return engine.audioQueue.push(.media(audio), bytes: audio.buffer.bytes.count, seconds: audio.buffer.duration.seconds,
                                          overflow: audio.segment.hasVideo && engine.videoQueue.isEmpty)
        case .end(let video, let timeline):
            // An overflowing push is always taken: the end never waits.
            if video {
                _ = engine.videoQueue.push(.end(serial: serial, timeline: timeline), bytes: 0, seconds: 0, overflow: true)
            } else if engine.configuration.audioOutput != nil {
                _ = engine.audioQueue.push(.end(serial: serial, timeline: timeline), bytes: 0, seconds: 0, overflow: true)
            }
            return true
        }
    }

    private func clearPending() {
        pending.removeAll(keepingCapacity: true)
    }

    /// - Parameter timeline: where the last pass ends, when one was read.
    private func endOfPlayback(at timeline: Double? = nil) {
        pending.append(.end(video: true, timeline: timeline))
        pending.append(.end(video: false, timeline: timeline))
    }
}

extension VideoFrame {
    /// Memory the frame holds: its CPU planes, or its dmabuf objects.
    var byteCount: Int {
        if let hardware = storage as? any DMABufStorage { return hardware.dmabuf.objects.reduce(0) { $0 + $1.size } }
        return planes.reduce(0) { $0 + $1.bytesPerRow * $1.rows }
    }
}
