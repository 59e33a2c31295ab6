import Synchronization

/// A simulated sound card: a buffer of `bufferFrames` sample frames that
/// plays at `format.sampleRate` in real time on `clock`, so the audio clock
/// and back-pressure behave like ALSA's without a device.
///
/// Playback starts with the first write. While running, the played position
/// advances with clock time; if it catches up with what was written, the
/// device has run dry: that is an underrun, counted in `underruns`, and
/// playback resumes from the next write. Draining to the end or discarding is
/// not an underrun.
///
/// `driftPPM` makes it a sound card whose crystal runs off: it plays that
/// many parts per million faster (or slower, negative) than its nominal
/// rate, while its delay is counted in nominal frames, as a real device's is.
///
/// Threading: `write`, `pause`, `resume`, `discard` and `drain` on the audio
/// thread; `delay` and the counters from any thread (state is behind a Mutex,
/// never held while sleeping).
public final class NullAudioOutput: AudioOutput, Sendable {
    public let format: AudioFormat
    /// Capacity of the simulated device buffer, in sample frames.
    public let bufferFrames: Int
    /// How far the simulated crystal runs off its nominal rate, parts per million.
    public let driftPPM: Double
    private let clock: any HostClock
    private let state: Mutex<PlaybackState>

    /// How often a write or drain blocked on a paused device looks again for
    /// `resume` or `discard` (called from another thread), in clock time.
    static let pausedPollInterval: Duration = .milliseconds(5)

    /// - Parameters:
    ///   - format: the PCM layout `write` takes.
    ///   - clock: the clock playback runs on and `write`/`drain` sleep on.
    ///   - bufferDuration: device buffer size (at least one sample frame).
    ///   - driftPPM: how much faster than nominal it plays (-1000...1000).
    public init(format: AudioFormat, clock: any HostClock, bufferDuration: Duration = .milliseconds(100), driftPPM: Double = 0) {
        precondition(Self.driftRange.contains(driftPPM), "a drift of \(driftPPM) ppm")
        self.format = format
        self.clock = clock
        self.driftPPM = driftPPM
        bufferFrames = max(1, Int(Int128(bufferDuration.nanoseconds) * Int128(format.sampleRate) / 1_000_000_000))
        state = Mutex(PlaybackState(sampleRate: Int64(format.sampleRate), driftPPM: driftPPM, now: clock.now()))
    }

    /// The drifts a simulated device takes: real crystals are within about ±100 ppm.
    public static let driftRange = -1000.0...1000.0

    /// Times the device ran dry while playing, as of now.
    public var underruns: Int {
        state.withLock { state in
            state.update(at: clock.now())
            return state.underruns
        }
    }
    /// Sample frames accepted by `write` since the output was made.
    public var framesWritten: Int { state.withLock { Int($0.framesWritten) } }
    /// Sample frames played since the output was made, as of now.
    public var framesPlayed: Int {
        state.withLock { state in
            state.update(at: clock.now())
            return Int(state.played)
        }
    }
    public var isPaused: Bool { state.withLock { $0.paused } }

    /// Queues `buffer`; blocks (sleeping on the clock) while it would overflow
    /// the device buffer, writing a buffer larger than the device in pieces.
    /// While paused and full, it waits for `resume` or `discard` from another thread.
    public func write(_ buffer: AudioBuffer) throws {
        precondition(buffer.format == format, "write \(buffer.format) to a \(format) output")
        var remaining = Int64(buffer.frameCount)
        let capacity = Int64(bufferFrames)
        // Wait for room for the whole buffer, or half the device for big ones, so
        // a big write moves in large pieces instead of one frame at a time.
        let piece = max(1, capacity / 2)
        while remaining > 0 {
            let step = state.withLock { state -> Step in
                let now = clock.now()
                state.update(at: now)
                let room = capacity - (state.written - state.played)
                let wanted = min(remaining, piece)
                if room >= wanted {
                    let count = min(room, remaining)
                    state.queue(count, at: now)
                    return .wrote(count)
                }
                if state.paused { return .wait(now + Self.pausedPollInterval) }
                return .wait(state.time(whenPlayed: state.written - capacity + wanted))
            }
            switch step {
            case .wrote(let count): remaining -= count
            case .wait(let deadline): clock.sleep(until: deadline)
            }
        }
    }

    /// When `write` of `frames` (up to the device's size) would not have to
    /// wait: nil if there is room now.
    public func roomTime(forFrames frames: Int) -> HostTime? {
        state.withLock { state in
            state.update(at: clock.now())
            let capacity = Int64(bufferFrames)
            let wanted = min(Int64(frames), capacity)
            guard capacity - (state.written - state.played) < wanted, !state.paused, !state.idle else { return nil }
            return state.time(whenPlayed: state.written - capacity + wanted)
        }
    }

    /// A simulated device: silence need not be played into it.
    public var stopsForSilence: Bool { true }

    /// How long the last sample written takes to be heard, and when that was read.
    public func delay() -> (delay: Duration, at: HostTime) {
        state.withLock { state in
            let now = clock.now()
            state.update(at: now)
            let frames = Int128(state.written - state.played)
            return (.nanoseconds(Int64(frames * 1_000_000_000 / Int128(state.sampleRate))), now)
        }
    }

    /// Freezes the played position; what is buffered stays.
    public func pause() {
        state.withLock { state in
            state.update(at: clock.now())
            state.paused = true
        }
    }

    /// Continues playing from where `pause` froze it.
    public func resume() {
        state.withLock { state in
            guard state.paused else { return }
            state.paused = false
            state.restart(at: clock.now())
        }
    }

    /// Drops everything buffered: the delay becomes zero, with no underrun.
    public func discard() {
        state.withLock { state in
            state.update(at: clock.now())
            state.written = state.played
            state.idle = true
        }
    }

    /// Blocks (sleeping on the clock) until everything written has played.
    /// While paused, it waits for `resume` or `discard` from another thread.
    public func drain() throws {
        state.withLock { $0.draining = true }
        defer { state.withLock { $0.draining = false } }
        while true {
            let deadline = state.withLock { state -> HostTime? in
                let now = clock.now()
                state.update(at: now)
                if state.played >= state.written { return nil }
                return state.paused ? now + Self.pausedPollInterval : state.time(whenPlayed: state.written)
            }
            guard let deadline else { return }
            clock.sleep(until: deadline)
        }
    }

    private enum Step {
        case wrote(Int64)
        case wait(HostTime)
    }
}

/// Positions of the simulated device, in sample frames since it was made.
///
/// Playback is extrapolated from an anchor: at `anchorTime` the device had
/// played `anchorPlayed`; it moves the anchor on every start, resume and refill.
private struct PlaybackState {
    let sampleRate: Int64
    /// The rate it really plays at, in frames per 10^6 seconds (nominal, drift included).
    let playRate: Int128
    /// End of the queued audio.
    var written: Int64 = 0
    /// Where playback was when last updated; never past `written`.
    var played: Int64 = 0
    var anchorPlayed: Int64 = 0
    var anchorTime: HostTime
    var paused = false
    /// Nothing to play (not started, ran dry, drained or discarded): the
    /// position stands still until the next write.
    var idle = true
    /// Reaching the end while draining is the goal, not an underrun.
    var draining = false
    var underruns = 0
    var framesWritten: Int64 = 0

    init(sampleRate: Int64, driftPPM: Double, now: HostTime) {
        self.sampleRate = sampleRate
        playRate = Int128((Double(sampleRate) * (1_000_000 + driftPPM)).rounded())
        anchorTime = now
    }

    /// Advances `played` to `now`; clamps it at `written` and counts the underrun.
    mutating func update(at now: HostTime) {
        guard !paused, !idle else { return }
        let elapsed = Int128(max(0, (now - anchorTime).nanoseconds))
        let position = anchorPlayed + Int64(elapsed * playRate / 1_000_000_000_000_000)
        if position >= written {
            played = written
            idle = true
            if !draining { underruns += 1 }
        } else {
            played = position
        }
    }

    mutating func queue(_ frames: Int64, at now: HostTime) {
        if idle {
            idle = false
            if !paused { restart(at: now) }
        }
        written += frames
        framesWritten += frames
    }

    mutating func restart(at now: HostTime) {
        anchorTime = now
        anchorPlayed = played
    }

    /// The earliest clock time at which `played` reaches `position` (rounded up,
    /// so an update at that time sees it reached).
    func time(whenPlayed position: Int64) -> HostTime {
        let frames = Int128(position - anchorPlayed)
        let nanoseconds = (frames * 1_000_000_000_000_000 + playRate - 1) / playRate
        return anchorTime + .nanoseconds(Int64(nanoseconds))
    }
}
