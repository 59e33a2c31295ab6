import FoundationEssentials

/// The audio stage: applies volume and rate, writes to the audio output
/// when the device has room for it, and sets the master clock from the
/// device's reported delay after every write. Its waits are deadlines: when
/// the device will have room, when what was written has been heard.
///
/// Audio is written where the timeline puts it: silence fills what a stream
/// leaves out (a late start, a hole, an early end of a pass or of playback),
/// so the device plays, and the clock runs, at their true times; an overlap
/// is trimmed; a jump of a second or more re-anchors instead of being filled.
final class AudioStage: EngineStage {
    let name = "audio"
    unowned let engine: Engine
    let signal: WakeSignal
    let output: any AudioOutput
    private var serial = -1
    private var paused = false
    private var lastSegment: Segment?
    /// Taken from the queue but not written yet: its processed buffer waits for room.
    private var ready: (audio: TimelineAudio, buffer: AudioBuffer)?
    /// A newer serial's entry, read before the state said so.
    private var early: StageEntry<TimelineAudio>?
    /// The end came: once the device has played what was written, report it.
    private var drainingUntil: HostTime?
    /// A pause between items on a device that stops for it: first what was
    /// written plays out (until `drainAt`), then the device stands and the
    /// master clock runs on from the last sample heard until `end`.
    private var pause: (drainAt: HostTime, start: Double, end: Double, stopped: Bool)?
    /// The device is drained this long before it would run dry, so a device
    /// that counts running dry as an underrun never sees one.
    static let drainMargin: Duration = .milliseconds(10)
    /// Timeline seconds through which input audio (or padding) has been
    /// taken on this serial: where the next audio is due.
    private var writtenThrough: Double?
    /// A silence entry fed to an output that does not stop for it: written
    /// a piece at a time up to this timeline position.
    private var silenceUntil: Double?
    /// Where the last audio from the stream (not padding) ended.
    private var streamThrough: Double?
    /// A gap or an overlap smaller than this is rounding, left alone.
    static let tolerance = 0.002
    /// A gap this long or longer is a jump (a stream discontinuity), not a hole.
    static let fillLimit = 1.0
    /// Silence is written in pieces no longer than a decoded buffer, so the
    /// device takes each as it has room and the clock is set after each.
    static let fillPiece = 0.02
    /// Silence for a stream that is late is written once the device holds
    /// less than this: late enough that audio arriving meanwhile is kept,
    /// early enough that a wake-up a little late does not run it dry.
    static let feedMargin: Duration = .milliseconds(30)
    private var stretcher: TimeStretcher
    /// The wall schedule followed (as read with the rest of the state at each step).
    var wallSchedule: WallSchedule?
    /// Sound kept on the wall schedule: see AudioStage+WallClock.
    var wallSound: WallSound

    init(engine: Engine, output: any AudioOutput) {
        self.engine = engine
        self.output = output
        signal = engine.signals.audio
        stretcher = TimeStretcher(format: output.format)
        wallSound = WallSound(format: output.format)
    }

    func step(now: HostTime) -> StageWake {
        let (stopped, current, playing, rate, gain, wall) = engine.state.withLock {
            ($0.stopped, $0.serial, $0.playing && !$0.buffering, abs($0.rate), $0.muted ? Float(0) : $0.volume, $0.wall)
        }
        if stopped { return .stop }
        let following = rate == 1 ? wall : nil
        if following != wallSchedule {
            wallSchedule = following
            wallSound.restart()
        }
        if current != serial {
            output.discard()
            stretcher.reset()
            wallSound.newSound()
            serial = current
            ready = nil
            drainingUntil = nil
            pause = nil
            silenceUntil = nil
            writtenThrough = nil
            streamThrough = nil
        }
        if !playing {
            if !paused { output.pause(); paused = true }
            return .signal
        }
        if paused { output.resume(); paused = false }
        if let drainingUntil {
            guard now >= drainingUntil else { return .at(drainingUntil) }
            self.drainingUntil = nil
            try? output.drain()
            engine.stageFinished(.audio, serial: serial, segment: lastSegment)
            return .now
        }
        if let current = pause { return standStill(current, now: now, rate: rate) }
        if let (audio, taken) = ready {
            var buffer = taken
            if let schedule = wallSchedule {
                switch placeOnWall(audio, buffer, schedule: schedule) {
                case .write(let placed): buffer = placed
                case .wait(let until): return .at(until)
                case .drop:
                    ready = nil
                    return .now
                }
                ready = (audio, buffer)
            }
            if let room = roomTime(for: buffer, now: now) { return .at(room) }
            ready = nil
            commit(audio, buffer: buffer, rate: rate)
            return .now
        }
        if let until = silenceUntil {
            if let fill = padding(to: until, before: nil, rate: rate, limit: .infinity) {
                ready = fill
                return .now
            }
            silenceUntil = nil
            streamThrough = writtenThrough
        }
        guard let entry = early ?? engine.audioQueue.pop() else { return keepDeviceFed(now: now, rate: rate) }
        early = nil
        if entry.serial > serial {
            early = entry
            return .now
        }
        guard entry.serial == serial else { return .now }
        switch entry {
        case .end(_, let end):
            if let end, let fill = padding(to: end, before: nil, rate: rate) {
                early = entry
                ready = fill
                return .now
            }
            flushStretcher(rate: rate, gain: gain)
            // Playback ends here: nothing more is due, so nothing keeps the device fed.
            streamThrough = nil
            drainingUntil = engine.configuration.untimed ? now : max(now, playedOut())
        case .media(let incoming):
            if let fill = padding(to: incoming.timeline, before: incoming, rate: rate) {
                early = entry
                ready = fill
                return .now
            }
            if let seconds = incoming.silence {
                hold(incoming, seconds: seconds, rate: rate, gain: gain)
                return .now
            }
            guard let audio = trimmed(incoming) else { return .now }
            writtenThrough = audio.timeline + audio.buffer.duration.seconds
            streamThrough = writtenThrough
            if let previous = lastSegment, previous.id != audio.segment.id, !audio.segment.hasVideo {
                engine.crossSeam(from: previous, to: audio.segment)
            }
            lastSegment = audio.segment
            var buffer = shaped(audio.buffer, rate: rate)
            if gain != 1 { buffer = buffer.scaled(by: gain) }
            ready = (audio, buffer)
        }
        return .now
    }

    /// Nothing to write while playing (the source is behind, or the far side
    /// of a hole has not been read yet): silence where audio is due keeps the
    /// device from running dry and the clock running at its true rate, up
    /// to `fillLimit` past the stream's last audio. Audio that then arrives
    /// for time already filled is trimmed.
    private func keepDeviceFed(now: HostTime, rate: Double) -> StageWake {
        guard !engine.configuration.untimed, let due = writtenThrough, let last = streamThrough,
              due - last < Self.fillLimit else { return .signal }
        // Read against the device's own reading time: `now` is a little older.
        let (delay, at) = output.delay()
        if delay > Self.feedMargin { return .at(at + (delay - Self.feedMargin)) }
        ready = padding(to: due + Self.fillPiece, before: nil, rate: rate)
        return .now
    }

    /// The next piece of silence from where audio is due towards `timeline`,
    /// ready to write, when there is a hole shorter than `limit` (nil
    /// otherwise). The first audio of a serial is due at its segment's
    /// start: a stream that starts late gets silence before it.
    private func padding(to timeline: Double, before audio: TimelineAudio?, rate: Double,
                         limit: Double = fillLimit) -> (TimelineAudio, AudioBuffer)? {
        guard let due = writtenThrough ?? audio?.segment.timelineStart else { return nil }
        let gap = timeline - due
        guard gap > Self.tolerance, gap < limit, let segment = lastSegment ?? audio?.segment else { return nil }
        let format = output.format
        let frames = Int((min(gap, Self.fillPiece) * Double(format.sampleRate)).rounded())
        let pts = segment.ptsOrigin + MediaTime(seconds: due - segment.timelineStart, preferredTimescale: Int32(format.sampleRate))
        let silence = AudioBuffer(pts: pts, format: format, bytes: [UInt8](repeating: 0, count: frames * format.bytesPerFrame))
        writtenThrough = due + silence.duration.seconds
        lastSegment = segment
        engine.stats.update { $0.audioFramesPadded += frames }
        return (TimelineAudio(buffer: silence, segment: segment, timeline: due, serial: serial), shaped(silence, rate: rate))
    }

    /// Audio as written: stretched at a rate other than 1, resampled onto
    /// the wall clock when it is followed, as it is otherwise.
    private func shaped(_ buffer: AudioBuffer, rate: Double) -> AudioBuffer {
        if rate != 1 { return stretcher.process(buffer, rate: rate) }
        return wallSchedule != nil ? resampledOntoWall(buffer) : buffer
    }

    /// `audio` less what overlaps audio already written; nil when all of it
    /// does. An overlap of `fillLimit` or more is a jump back: re-anchored, not trimmed.
    private func trimmed(_ audio: TimelineAudio) -> TimelineAudio? {
        guard let due = writtenThrough, due - audio.timeline > Self.tolerance, due - audio.timeline < Self.fillLimit else { return audio }
        let overlap = due - audio.timeline
        let frames = Int((overlap * Double(audio.buffer.format.sampleRate)).rounded())
        guard frames < audio.buffer.frameCount else { return nil }
        var kept = audio
        kept.buffer = audio.buffer.droppingFirst(frames: frames)
        kept.timeline = due
        return kept
    }

    /// A silence entry: an output that stops for silence plays out what was
    /// written and then stands still until its end; another is fed silence
    /// from here to its end (see `silenceUntil`).
    private func hold(_ silence: TimelineAudio, seconds: Double, rate: Double, gain: Float) {
        lastSegment = silence.segment
        if writtenThrough == nil { writtenThrough = silence.timeline }
        guard output.stopsForSilence, !engine.configuration.untimed else {
            silenceUntil = silence.timeline + seconds
            return
        }
        writtenThrough = silence.timeline + seconds
        streamThrough = writtenThrough
        flushStretcher(rate: rate, gain: gain)
        pause = (playedOut(less: Self.drainMargin), silence.timeline, silence.timeline + seconds, false)
    }

    /// Writes what the stretcher (at a rate other than 1) or the wall's
    /// resampler still holds back and starts them afresh: what follows is a
    /// new stretch of sound.
    private func flushStretcher(rate: Double, gain: Float) {
        if rate != 1, let tail = stretcher.flush(rate: rate) { try? output.write(tail.scaled(by: gain)) }
        stretcher.reset()
        if let tail = try? wallSound.resampler.flush() { try? output.write(tail.scaled(by: gain)) }
    }

    /// When the device will have played everything written, less `margin`
    /// (from the output's delay and the time it was read).
    private func playedOut(less margin: Duration = .zero) -> HostTime {
        let (delay, at) = output.delay()
        return at + (delay > margin ? delay - margin : .zero)
    }

    private func standStill(_ current: (drainAt: HostTime, start: Double, end: Double, stopped: Bool), now: HostTime,
                            rate: Double) -> StageWake {
        if !current.stopped {
            guard now >= current.drainAt else { return .at(current.drainAt) }
            try? output.drain()
            engine.clock.set(position: current.start, at: engine.configuration.hostClock.now(), serial: serial, fromDevice: false)
            pause?.stopped = true
        }
        guard let position = engine.clock.position(at: now, serial: serial), position < current.end else {
            pause = nil
            return .now
        }
        return .at(now + .nanoseconds(Int64(((current.end - position) / rate * 1e9).rounded(.up))))
    }

    /// When the device will have room for `buffer`; nil to write now. An
    /// untimed run writes at once: its output runs on a clock of its own.
    private func roomTime(for buffer: AudioBuffer, now: HostTime) -> HostTime? {
        guard !engine.configuration.untimed, buffer.frameCount > 0 else { return nil }
        return output.roomTime(forFrames: buffer.frameCount).flatMap { $0 > now ? $0 : nil }
    }

    private func commit(_ audio: TimelineAudio, buffer: AudioBuffer, rate: Double) {
        if buffer.frameCount > 0 {
            do {
                try output.write(buffer)
            } catch {
                // A device error must not stop the picture: the clock runs on
                // from its last reading and the next write tries again.
                engine.stats.update { $0.audioWriteErrors += 1 }
                return
            }
        }
        let underruns = output.underruns
        engine.stats.update {
            $0.audioFramesWritten += buffer.frameCount
            $0.underruns = underruns
        }
        // Input consumed so far, in timeline seconds; the stretcher and the resampler hold back a little.
        let consumedEnd = audio.timeline + audio.buffer.duration.seconds - stretcher.latency(rate: rate) - wallSound.resampler.latency
        let (delay, at) = output.delay()
        // On a wall schedule the picture's clock is the wall's; sound follows it.
        if let schedule = wallSchedule {
            let through = wallSound.written(audio) - wallSound.resampler.latency
            followWall(schedule, heard: through - delay.secondsDouble / wallSound.controller.ratio, at: at, in: audio.segment)
        } else if engine.clock.set(position: consumedEnd - delay.secondsDouble * rate, at: at, serial: audio.serial, fromDevice: true) {
            // The presenter may be waiting for the audio clock to start.
            engine.signals.presenter.raise()
        }
        if !audio.segment.hasVideo {
            let itemTime = audio.segment.itemTime(ofPts: audio.buffer.pts)
            engine.presented(audio.segment, itemTime: itemTime, timeline: audio.timeline, serial: audio.serial)
        }
    }
}
