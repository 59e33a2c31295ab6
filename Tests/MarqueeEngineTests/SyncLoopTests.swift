@testable import Marquee
import MarqueeTestSupport
import Testing

/// The sync loop against a sound card whose clock drifts from the host's by
/// +-0.5 %, over minutes of simulated time: the engine's own stages (source,
/// presenter, audio) stepped by `StageExecutor` on a virtual clock, with
/// 0-2 ms of seeded wake-up latency, playing a looping 25 fps clip to
/// `NullVideoOutput` and `DriftingSoundCard`.
///
/// The card's hardware pointer moves in 10 ms periods and each delay reading
/// is stamped with the time of the period boundary, like an ALSA status
/// htstamp. Besides the engine's offset (its presentation log), the test
/// measures the true offset: what the card is actually playing at each
/// display time, minus the frame's time.
@Suite struct SyncLoopTests {
    struct Outcome {
        var presented = 0
        var dropped = 0
        var maxEngineOffset = 0.0
        var maxTrueOffset = 0.0
        /// Timeline seconds of video per host second, first to last frame.
        var videoRate = 0.0
        var hostSeconds = 0.0
    }

    static let frameRate = 25.0
    /// Passes of the 2 s clip: 4 minutes.
    static let passes = 120
    static var minutes: Double { Double(passes) * 2 / 60 }

    @Test(arguments: [0.005, -0.005, 0.0])
    func videoStaysWithinOneFrameOfADriftingAudioClock(drift: Double) throws {
        let outcome = try Self.simulate(drift: drift, refreshRate: 60)
        let frameInterval = 1 / Self.frameRate
        print(String(format: "drift %+.1f %%: %d frames shown, %d dropped, max |A-V| engine %.2f ms, true %.2f ms, video rate %.5f",
                     drift * 100, outcome.presented, outcome.dropped, outcome.maxEngineOffset * 1000,
                     outcome.maxTrueOffset * 1000, outcome.videoRate))
        #expect(outcome.hostSeconds >= Self.minutes * 60 / (1 + drift) - 1)
        #expect(outcome.maxEngineOffset < frameInterval, "engine A-V offset reached \(outcome.maxEngineOffset * 1000) ms")
        #expect(outcome.maxTrueOffset < frameInterval, "true A-V offset reached \(outcome.maxTrueOffset * 1000) ms")
        // Video followed the sound card's clock, not the host's: over 4
        // minutes a 0.5 % drift is 1.2 s, which pacing by the host would show.
        #expect(abs(outcome.videoRate - (1 + drift)) < 0.0002, "video ran at \(outcome.videoRate)x host time")
        // A 60 Hz display has room for 25.125 fps: nothing needs dropping.
        #expect(outcome.dropped == 0)
        #expect(outcome.presented == Self.passes * 50)
    }

    /// A display whose refresh equals the frame rate has no spare vblanks: a
    /// fast sound card forces drops (about one frame in 200), a slow one
    /// repeats; either way video keeps to the audio within a frame interval.
    @Test(arguments: [0.005, -0.005])
    func onADisplayAtTheFrameRateDriftIsAbsorbedByDropsAndRepeats(drift: Double) throws {
        let outcome = try Self.simulate(drift: drift, refreshRate: Self.frameRate)
        let frameInterval = 1 / Self.frameRate
        print(String(format: "25 Hz display, drift %+.1f %%: %d frames shown, %d dropped, max |A-V| engine %.2f ms, true %.2f ms",
                     drift * 100, outcome.presented, outcome.dropped, outcome.maxEngineOffset * 1000, outcome.maxTrueOffset * 1000))
        #expect(abs(outcome.videoRate - (1 + drift)) < 0.0002)
        // A drop is decided by where the frame lands (the next vblank, a whole
        // refresh later here), so a late frame is dropped before it trails by a frame.
        // The true offset may pass the engine's by what the clock misjudges the
        // device (its pointer moves in 10 ms periods): well under a millisecond.
        #expect(outcome.maxEngineOffset <= frameInterval + 1e-9, "engine A-V offset reached \(outcome.maxEngineOffset * 1000) ms")
        #expect(outcome.maxTrueOffset <= frameInterval + 0.001, "true A-V offset reached \(outcome.maxTrueOffset * 1000) ms")
        let needed = Self.minutes * 60 * Self.frameRate * drift
        if drift > 0 { #expect(Double(outcome.dropped) >= 0.8 * needed, "a 0.5 % fast clock needs \(needed) drops, got \(outcome.dropped)") }
    }

    // MARK: The simulation

    static func simulate(drift: Double, refreshRate: Double) throws -> Outcome {
        let clock = VirtualClock(start: HostTime(nanoseconds: 1_000_000_000))
        let card = DriftingSoundCard(drift: drift, clock: clock)
        let display = RecordingVideoOutput(clock: clock, refreshRate: refreshRate)
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: Int(frameRate), size: "160x96"))
        let player = StageExecutor.player([path], video: display, audio: card, clock: clock, loop: .item, passes: passes)
        let executor = StageExecutor(player: player, clock: clock, latency: (0x5eed, 0.002))
        player.play()
        executor.run(for: minutes * 60 * 1.1)

        var outcome = Outcome()
        let log = player.stats.presentationLog
        outcome.presented = log.count
        outcome.dropped = player.stats.snapshot.framesDropped
        var first: (timeline: Double, display: Double)?
        var last: (timeline: Double, display: Double)?
        // The first frame is shown at once, before the audio clock starts.
        for record in log.dropFirst() {
            let timeline = Double(record.pass) * 2 + record.pts
            if let offset = record.avOffsetMs { outcome.maxEngineOffset = max(outcome.maxEngineOffset, abs(offset) / 1000) }
            let heard = card.heardPosition(at: HostTime(nanoseconds: Int64((record.displayTime * 1e9).rounded())))
            outcome.maxTrueOffset = max(outcome.maxTrueOffset, abs(heard - timeline))
            if first == nil { first = (timeline, record.displayTime) }
            last = (timeline, record.displayTime)
        }
        if let first, let last {
            outcome.hostSeconds = last.display - first.display
            outcome.videoRate = (last.timeline - first.timeline) / outcome.hostSeconds
        }
        return outcome
    }
}

/// A sound card whose sample clock runs at `1 + drift` times the host's: 48 kHz
/// nominal, a 100 ms buffer, started once half full, its hardware pointer
/// moving in 10 ms periods and each delay reading stamped at the period
/// boundary. It never blocks: it says when it will have room (`roomTime`),
/// and the audio stage waits for that.
final class DriftingSoundCard: AudioOutput, @unchecked Sendable {
    // @unchecked: stepped on the executor's one thread.
    static let rate = 48000.0
    let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16)
    let bufferFrames = 4800
    let periodFrames = 480
    let drift: Double
    let clock: VirtualClock
    private(set) var written = 0
    private var started: HostTime?

    init(drift: Double, clock: VirtualClock) {
        self.drift = drift
        self.clock = clock
    }

    private var framesPerHostSecond: Double { Self.rate * (1 + drift) }

    /// Frames really played by host time `t` (it never underruns here: checked).
    private func played(at t: HostTime) -> Double {
        guard let started else { return 0 }
        let position = (t - started).secondsDouble * framesPerHostSecond
        precondition(position <= Double(written), "the simulated device ran dry at \((t - started).secondsDouble) s: played \(position), written \(written)")
        return position
    }

    private func room(at t: HostTime) -> Int { bufferFrames - (written - Int(played(at: t))) }

    func write(_ buffer: AudioBuffer) throws {
        precondition(room(at: clock.now()) >= buffer.frameCount, "write without room")
        written += buffer.frameCount
        if started == nil, written >= bufferFrames / 2 { started = clock.now() }
    }

    func roomTime(forFrames frames: Int) -> HostTime? {
        guard let started, room(at: clock.now()) < frames else { return nil }
        // One frame more: `room` counts whole frames played.
        let position = Double(written - bufferFrames + frames + 1)
        return started + .nanoseconds(Int64((position / framesPerHostSecond * 1e9).rounded(.up)))
    }

    /// Like `snd_pcm_status`: the delay from the last period boundary the
    /// hardware pointer crossed, stamped with the time it crossed it.
    func delay() -> (delay: Duration, at: HostTime) {
        let now = clock.now()
        guard let started else { return (.nanoseconds(Int64(Double(written) / Self.rate * 1e9)), now) }
        let boundary = (played(at: now) / Double(periodFrames)).rounded(.down) * Double(periodFrames)
        let at = started + .nanoseconds(Int64((boundary / framesPerHostSecond * 1e9).rounded(.up)))
        return (.nanoseconds(Int64((Double(written) - boundary) / Self.rate * 1e9)), at)
    }

    func pause() {}
    func resume() {}
    func discard() {}
    func drain() throws {}
    var underruns: Int { 0 }

    /// Timeline seconds of sound being heard at host time `t` (the last
    /// sample's time once everything written was played).
    func heardPosition(at t: HostTime) -> Double {
        guard let started else { return 0 }
        return min((t - started).secondsDouble * framesPerHostSecond, Double(written)) / Self.rate
    }
}
