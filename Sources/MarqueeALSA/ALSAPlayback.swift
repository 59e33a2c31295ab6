import Glibc
import MarqueeCore

/// The state behind `ALSAAudioOutput`, kept under its lock: the open PCM (or
/// the stand-in while it is missing) and what the pipeline asked for (paused,
/// draining). Each method does what can be done without blocking and says
/// when to come back; the output sleeps outside the lock.
///
/// Recovery, in one place (`recover`):
/// - underrun (EPIPE): `snd_pcm_prepare`, then the write goes on; the device
///   restarts when its buffer is full again. The clock stays true because it
///   is always read back from the device (written end minus delay).
/// - suspend (ESTRPIPE): `snd_pcm_resume` until it stops answering EAGAIN,
///   `snd_pcm_prepare` where it cannot resume.
/// - EBADFD (the PCM is not in a state to take the call): `snd_pcm_prepare`.
/// - anything else (ENODEV after an unplug, EIO, a failed recovery):
///   the PCM is closed and the stand-in takes over, preloaded with the delay
///   the device last reported so the clock does not jump; the device is
///   reopened every `retryInterval` in exactly the pipeline's format.
struct ALSAPlayback: @unchecked Sendable {
    // @unchecked: the PCM (a non-Sendable class) is only ever used inside the
    // output's Mutex; the value itself never leaves it.
    enum Step {
        case wrote(frames: Int)
        case wait(until: HostTime)
        /// State changed (recovered, reconnected): try again at once.
        case again
    }

    let format: AudioFormat
    let configuration: ALSAAudioOutput.Configuration
    private(set) var device: (any PCMDevice)?
    private var standIn: StandInDevice
    /// Kept only for devices paused by dropping (no hardware pause).
    private var recent: RecentAudio?
    /// Paused by the pipeline.
    private(set) var paused = false
    /// Paused by dropping: the audio that had not been heard, written again on resume.
    private var replay: [UInt8]?
    /// Draining: when to give up and drop.
    private var drainDeadline: HostTime?
    private var nextRetry: HostTime
    /// The last delay reported, in frames: what the stand-in starts with when the device is lost.
    private var lastDelayFrames = 0
    /// A failure seen by `delay()` (any thread), acted on by the next audio-thread call.
    private var pendingLoss: ALSAError?
    private var failedRecoveries = 0
    private(set) var stallDone = false
    private(set) var statistics: ALSAAudioOutput.Statistics

    init(format: AudioFormat, configuration: ALSAAudioOutput.Configuration, device: (any PCMDevice)?,
         error: ALSAError?, now: HostTime) {
        self.format = format
        self.configuration = configuration
        let capacity = Int(Int128(configuration.bufferDuration.nanoseconds) * Int128(format.sampleRate) / 1_000_000_000)
        standIn = StandInDevice(sampleRate: format.sampleRate, capacity: device?.parameters.bufferFrames ?? capacity, now: now)
        nextRetry = now + configuration.retryInterval
        statistics = ALSAAudioOutput.Statistics(device: configuration.device, connected: device != nil)
        statistics.openAttempts = 1
        if let error {
            statistics.losses = 1
            statistics.lastError = error.description
        }
        if let device { adopt(device) }
    }

    private var bytesPerFrame: Int { format.bytesPerFrame }

    private func duration(ofFrames frames: Int) -> Duration {
        .nanoseconds(Int64(Int128(frames) * 1_000_000_000 / Int128(format.sampleRate)))
    }

    // MARK: Writing

    /// Writes what fits of `bytes` (`frames` sample frames) now.
    mutating func write(_ bytes: UnsafeRawBufferPointer, frames: Int, now: HostTime, opener: PCMOpener,
                        events: inout [ALSAAudioOutput.Event]) -> Step {
        if let error = pendingLoss {
            pendingLoss = nil
            lose(error, now: now, events: &events)
        }
        guard let device else { return writeToStandIn(frames: frames, now: now, opener: opener, events: &events) }
        if paused { return .wait(until: now + ALSAAudioOutput.pausedPollInterval) }
        do {
            let room = try device.available()
            let wanted = min(frames, device.parameters.periodFrames)
            // Below a period of room, wait, unless the device has not started:
            // it starts only once the buffer is full, so the rest must go in.
            guard room >= wanted || (room > 0 && device.state() != .running) else {
                return .wait(until: now + max(.milliseconds(1), duration(ofFrames: wanted - room)))
            }
            let taken = try device.write(bytes, frames: min(room, frames))
            let takenBytes = taken * bytesPerFrame
            recent?.append(UnsafeRawBufferPointer(rebasing: bytes.prefix(takenBytes)))
            statistics.framesWritten += taken
            failedRecoveries = 0
            return .wrote(frames: taken)
        } catch {
            return recover(from: error, now: now, events: &events)
        }
    }

    /// The device is missing: play into the stand-in, and reopen when it is time.
    private mutating func writeToStandIn(frames: Int, now: HostTime, opener: PCMOpener,
                                         events: inout [ALSAAudioOutput.Event]) -> Step {
        if now >= nextRetry, !paused, reconnect(now: now, opener: opener, events: &events) { return .again }
        if paused { return .wait(until: now + ALSAAudioOutput.pausedPollInterval) }
        // Room for all of it, or half the buffer for a big write: large pieces, few wake-ups.
        let wanted = min(Int64(frames), max(1, standIn.capacity / 2))
        if standIn.capacity - standIn.queued(at: now) >= wanted {
            let taken = Int(standIn.queue(Int64(frames), at: now))
            statistics.framesWritten += taken
            return .wrote(frames: taken)
        }
        return .wait(until: standIn.time(whenRoomFor: wanted) ?? now + ALSAAudioOutput.pausedPollInterval)
    }

    /// Writes `bytes` (whole frames) as far as the device takes them now; for
    /// the silence of a reconnection and the replay after a drop-pause.
    private mutating func writeNow(_ bytes: [UInt8], events: inout [ALSAAudioOutput.Event], now: HostTime) {
        guard let device, !bytes.isEmpty else { return }
        do {
            let frames = min(bytes.count / bytesPerFrame, try device.available())
            guard frames > 0 else { return }
            let written = bytes.withUnsafeBytes { raw in Result { () throws(ALSAError) in try device.write(raw, frames: frames) } }
            let taken = try written.get()
            let takenBytes = taken * bytesPerFrame
            bytes.withUnsafeBytes { recent?.append(UnsafeRawBufferPointer(rebasing: $0.prefix(takenBytes))) }
        } catch {
            _ = recover(from: error, now: now, events: &events)
        }
    }

    // MARK: Recovery

    /// Acts on a failed call: recovers in place what can be, loses the device otherwise.
    mutating func recover(from error: ALSAError, now: HostTime, events: inout [ALSAAudioOutput.Event]) -> Step {
        guard let device else { return .again }
        if error.isTransient { return .wait(until: now + .milliseconds(1)) }
        failedRecoveries += 1
        if failedRecoveries > ALSAAudioOutput.recoveryLimit {
            lose(error, now: now, events: &events)
            return .again
        }
        do {
            if error.isUnderrun {
                try device.prepare()
                statistics.underruns += 1
            } else if error.code == -EBADFD {
                try device.prepare()    // not in a state to write (e.g. stopped): start over
            } else if error.isSuspended {
                do {
                    try device.resume()
                } catch let resumeError where resumeError.code == -EAGAIN {
                    failedRecoveries -= 1   // still waking up: not a failure
                    return .wait(until: now + .milliseconds(10))
                } catch {
                    try device.prepare()    // cannot resume (ENOSYS): start over
                }
                statistics.suspends += 1
            } else {
                lose(error, now: now, events: &events)
                return .again
            }
        } catch {
            lose(error, now: now, events: &events)
            return .again
        }
        statistics.lastError = error.description
        events.append(.recovered(error))
        return .again
    }

    /// Closes the device; the stand-in plays on from the delay it last reported.
    private mutating func lose(_ error: ALSAError, now: HostTime, events: inout [ALSAAudioOutput.Event]) {
        guard device != nil else { return }
        device = nil        // the PCMHandle's deinit closes it
        recent = nil
        replay = nil
        drainDeadline = nil
        failedRecoveries = 0
        standIn.discard(at: now)
        if paused { standIn.pause(at: now) }
        _ = standIn.queue(Int64(lastDelayFrames), at: now)
        nextRetry = now + configuration.retryInterval
        statistics.connected = false
        statistics.losses += 1
        statistics.lastError = error.description
        events.append(.unavailable(error, retryInterval: configuration.retryInterval))
    }

    /// Tries to open the device again, in exactly the pipeline's format.
    /// Audio still queued in the stand-in goes to the device as silence, so
    /// the clock runs on without a jump.
    private mutating func reconnect(now: HostTime, opener: PCMOpener, events: inout [ALSAAudioOutput.Event]) -> Bool {
        statistics.openAttempts += 1
        let request = PCMRequest.exactly(format, bufferDuration: configuration.bufferDuration,
                                         periodDuration: configuration.periodDuration)
        let opened: any PCMDevice
        do {
            opened = try opener(configuration.device, request)
        } catch {
            nextRetry = now + configuration.retryInterval
            statistics.lastError = error.description
            return false
        }
        let pending = Int(standIn.queued(at: now))
        standIn.discard(at: now)
        adopt(opened)
        writeNow([UInt8](repeating: 0, count: pending * bytesPerFrame), events: &events, now: now)
        statistics.reconnects += 1
        events.append(.reconnected(device: opened.name, parameters: opened.parameters))
        return device != nil
    }

    private mutating func adopt(_ opened: any PCMDevice) {
        device = opened
        statistics.connected = true
        statistics.parameters = opened.parameters
        let dropsToPause = !(opened.parameters.canPause && configuration.usesHardwarePause)
        recent = dropsToPause ? RecentAudio(capacity: opened.parameters.bufferFrames * bytesPerFrame) : nil
        failedRecoveries = 0
    }

    // MARK: The clock

    /// How long the last frame written takes to be heard, and when that was
    /// true: the device's status (its delay, stamped by the device when the
    /// PCM is `hw` with monotonic timestamps, else at the call) while it runs;
    /// `snd_pcm_delay` while prepared or paused (the kernel's status says 0
    /// there); the stand-in's own reckoning while the device is missing.
    mutating func delay(clock: any HostClock) -> (frames: Int, at: HostTime) {
        let now = clock.now()
        guard let device else { return (Int(standIn.queued(at: now)), now) }
        if let replay { return (replay.count / bytesPerFrame, now) }
        var frames = 0
        var at = now
        do {
            switch device.state() {
            case .running, .draining:
                let status = try device.status()
                frames = status.delayFrames
                // The device stamps its reading during the call, after `now`.
                let after = clock.now()
                at = after
                if let stamp = status.timestamp, stamp <= after, now - stamp <= ALSAAudioOutput.timestampTolerance {
                    at = stamp
                    statistics.timestampSource = "device"
                } else {
                    statistics.timestampSource = "host"
                }
            case .prepared, .paused:
                frames = try device.delay()
            default:
                frames = 0  // xrun (all played), setup (drained), suspended, ...
            }
        } catch let error where error.isUnderrun || error.isSuspended || error.isTransient {
            frames = 0      // the next write recovers it
        } catch {
            pendingLoss = error
            frames = lastDelayFrames
        }
        frames = max(0, frames)
        lastDelayFrames = frames
        return (frames, at)
    }

    // MARK: Pause, discard, drain

    mutating func pause(now: HostTime, events: inout [ALSAAudioOutput.Event]) {
        guard !paused else { return }
        paused = true
        guard let device else {
            standIn.pause(at: now)
            return
        }
        // Not started yet: nothing moves until the next write, which waits for resume.
        guard device.state() == .running else { return }
        do {
            if device.parameters.canPause, configuration.usesHardwarePause {
                try device.setPaused(true)
                return
            }
            // No hardware pause: keep what has not been heard, drop, replay on resume.
            let unheard = min(max(0, try device.delay()), device.parameters.bufferFrames)
            replay = recent?.last(unheard * bytesPerFrame) ?? []
            try device.drop()
            try device.prepare()
            recent?.removeAll()
        } catch {
            replay = nil
            _ = recover(from: error, now: now, events: &events)
        }
    }

    mutating func resume(now: HostTime, events: inout [ALSAAudioOutput.Event]) {
        guard paused else { return }
        paused = false
        guard let device else {
            standIn.resume(at: now)
            return
        }
        if let replay {
            self.replay = nil
            writeNow(replay, events: &events, now: now)
            return
        }
        guard device.state() == .paused else { return }
        do {
            try device.setPaused(false)
        } catch {
            _ = recover(from: error, now: now, events: &events)
        }
    }

    /// Drops everything buffered: the delay becomes 0.
    mutating func discard(now: HostTime, events: inout [ALSAAudioOutput.Event]) {
        replay = nil
        recent?.removeAll()
        drainDeadline = nil
        lastDelayFrames = 0
        guard let device else {
            standIn.discard(at: now)
            return
        }
        do {
            try device.drop()
            try device.prepare()
        } catch {
            _ = recover(from: error, now: now, events: &events)
        }
    }

    /// One step of draining: nil when everything written has been heard,
    /// else when to look again.
    mutating func drain(now: HostTime, events: inout [ALSAAudioOutput.Event]) -> HostTime? {
        if paused { return now + ALSAAudioOutput.pausedPollInterval }
        guard let device else {
            guard standIn.queued(at: now) > 0 else { return nil }
            return standIn.timeWhenEmpty() ?? now + ALSAAudioOutput.pausedPollInterval
        }
        do {
            if drainDeadline == nil {
                let queued = device.state() == .prepared ? try device.delay() : lastDelayFrames
                do {
                    try device.drain()      // starts a prepared stream, plays out, stops
                } catch let error where error.code == -EAGAIN {
                    // Non-blocking: draining now; the state says when it is over.
                }
                drainDeadline = now + duration(ofFrames: max(queued, device.parameters.bufferFrames)) + ALSAAudioOutput.drainGrace
            }
            switch device.state() {
            case .draining, .running:
                if let deadline = drainDeadline, now >= deadline {
                    try device.drop()   // a drain that does not end: give up on the tail
                } else {
                    lastDelayFrames = max(0, try device.status().delayFrames)
                    let left = duration(ofFrames: lastDelayFrames)
                    return now + max(.milliseconds(1), min(left, ALSAAudioOutput.drainPollInterval))
                }
            default:
                break
            }
            drainDeadline = nil
            lastDelayFrames = 0
            try device.prepare()     // ready for the next write (drain leaves it in SETUP)
            return nil
        } catch {
            drainDeadline = nil
            lastDelayFrames = 0
            if error.isUnderrun {
                // It played to the end and stopped there: drained, not an underrun.
                do {
                    try device.prepare()
                } catch {
                    lose(error, now: now, events: &events)
                }
                return nil
            }
            _ = recover(from: error, now: now, events: &events)
            return self.device == nil ? nil : now + .milliseconds(1)
        }
    }

    /// The test hook: whether the stall is due now (and marks it done).
    mutating func takeStall(after frames: Int) -> Bool {
        guard !stallDone, statistics.framesWritten >= frames else { return false }
        stallDone = true
        return true
    }

    mutating func recordStall(from: HostTime, to: HostTime) {
        statistics.testStalls.append(.init(startSeconds: from.seconds, endSeconds: to.seconds))
    }
}
