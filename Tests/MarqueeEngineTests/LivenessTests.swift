import Foundation
@testable import Marquee
import MarqueeTestSupport
import Testing

/// Issue 20, the watchdog: `Liveness` says alive only while every stage
/// answers and playback makes progress or rests on purpose. First on
/// samples made by hand (each rule alone), then on the engine's own stages
/// stepped on a virtual clock, with a stage held as if its thread were stuck.
@Suite struct LivenessTests {
    static let start = HostTime(nanoseconds: 1_000_000_000)
    static let limit = Duration.seconds(5)

    /// A sample `seconds` after `start`, stages idle unless given.
    static func sample(_ seconds: Double, frames: Int = 0, audio: Int = 0, source: Int = 0, starting: Bool = false,
                       rest: PlayerHealth.Rest? = nil, busy: (stage: String, since: Double)? = nil,
                       sleeps: (stage: String, until: Double)? = nil) -> PlayerHealth {
        func at(_ seconds: Double) -> HostTime { start + .nanoseconds(Int64(seconds * 1e9)) }
        let stages = ["source", "present", "audio"].map { name in
            PlayerHealth.Stage(name: name, steps: name == "source" ? source : 0,
                               busySince: busy?.stage == name ? busy.map { at($0.since) } : nil,
                               sleepsUntil: sleeps?.stage == name ? sleeps.map { at($0.until) } : nil)
        }
        return PlayerHealth(time: at(seconds), stages: stages, framesPresented: frames, audioFramesWritten: audio,
                            starting: starting, rest: rest)
    }

    static func stalled(_ verdict: Liveness.Verdict) -> String? {
        if case .stalled(let reason) = verdict { reason } else { nil }
    }

    @Test func framesOrSoundSinceTheLastCheckAreProgress() {
        var liveness = Liveness(stepLimit: Self.limit)
        #expect(liveness.check(Self.sample(0)) == .alive, "the first sample has nothing to compare with")
        #expect(liveness.check(Self.sample(5, frames: 1)) == .alive)
        #expect(liveness.check(Self.sample(10, frames: 1, audio: 480)) == .alive, "sound alone (an audio-only item)")
        let reason = Self.stalled(liveness.check(Self.sample(15, frames: 1, audio: 480)))
        #expect(reason?.contains("no frame presented and no sound written for 5.0 s") == true, "\(reason ?? "alive")")
        #expect(liveness.check(Self.sample(20, frames: 2, audio: 480)) == .alive, "back once a frame comes")
    }

    /// Nothing presented for a minute is fine while the player rests on purpose, for each reason.
    @Test(arguments: [PlayerHealth.Rest.paused, .nothingToPlay, .buffering, .waitingForSource, .frameScheduled])
    func aPlayerRestingOnPurposeIsAlive(_ rest: PlayerHealth.Rest) {
        var liveness = Liveness(stepLimit: Self.limit)
        for second in stride(from: 0.0, through: 60, by: 5) {
            #expect(liveness.check(Self.sample(second, rest: rest)) == .alive, "\(rest) at \(second) s")
        }
    }

    /// A stage inside one step past the limit stops the pings, whatever
    /// else moves and however idle the player says it is: a stuck page
    /// flip while sound plays on, a decoder stuck while a picture is up.
    @Test func aStageStuckInsideAStepIsStalledAtTheLimit() {
        var liveness = Liveness(stepLimit: Self.limit)
        _ = liveness.check(Self.sample(0))
        #expect(liveness.check(Self.sample(5, frames: 10, audio: 9600, busy: ("present", 0))) == .alive, "5 s is the limit, not over it")
        let flip = Self.stalled(liveness.check(Self.sample(10, frames: 10, audio: 19200, busy: ("present", 0))))
        #expect(flip == "the present stage has been inside one step for 10.0 s")
        let decoder = Self.stalled(liveness.check(Self.sample(15, rest: .frameScheduled, busy: ("source", 9))))
        #expect(decoder == "the source stage has been inside one step for 6.0 s")
    }

    /// A stage whose wait does not end at its deadline does not answer
    /// either (its thread is frozen where it waits).
    @Test func aStageAsleepPastItsDeadlineIsStalled() {
        var liveness = Liveness(stepLimit: Self.limit)
        #expect(liveness.check(Self.sample(0, rest: .paused, sleeps: ("audio", 1))) == .alive)
        #expect(liveness.check(Self.sample(6, rest: .paused, sleeps: ("audio", 1))) == .alive, "5 s late is the limit")
        let reason = Self.stalled(liveness.check(Self.sample(7, rest: .paused, sleeps: ("audio", 1))))
        #expect(reason == "the audio stage has not woken up 6.0 s after its deadline")
        #expect(liveness.check(Self.sample(12, rest: .paused, sleeps: ("audio", 100))) == .alive, "a deadline still ahead")
    }

    /// Before a start's first frame, the source opening and decoding is
    /// the progress; a start whose source does nothing is stalled.
    @Test func aStartProgressesWithTheSourceSteps() {
        var liveness = Liveness(stepLimit: Self.limit)
        _ = liveness.check(Self.sample(0, source: 3, starting: true))
        #expect(liveness.check(Self.sample(5, source: 40, starting: true)) == .alive)
        #expect(Self.stalled(liveness.check(Self.sample(10, source: 40, starting: true))) != nil)
        #expect(Self.stalled(liveness.check(Self.sample(15, source: 41))) != nil, "source steps count only before the first frame")
    }

    // MARK: On the engine's stages

    typealias Rig = SteppedEngineTests.Rig

    /// Runs `rig` for `seconds` of its clock, checking `liveness` every `tick`.
    static func watch(_ clock: VirtualClock, _ executor: StageExecutor, _ player: Player, for seconds: Double, tick: Double,
                      _ liveness: inout Liveness) -> [Liveness.Verdict] {
        var verdicts: [Liveness.Verdict] = []
        let end = clock.now() + .nanoseconds(Int64(seconds * 1e9))
        while clock.now() < end {
            let next = clock.now() + .nanoseconds(Int64(tick * 1e9))
            executor.run(for: tick)
            // Everything waiting (paused, a picture up): time passes all the same.
            if clock.now() < next { clock.sleep(until: next) }
            verdicts.append(liveness.check(player.health()))
        }
        return verdicts
    }

    /// Playing is alive; a source held as if stuck in a decode, then a
    /// presenter held as if stuck in a page flip, each stop the pings one
    /// check past the limit (sound still being written the second time);
    /// released, the player is alive again; paused for a minute it is alive.
    @Test func heldStagesStopThePingsAndAPauseDoesNot() throws {
        let rig = Rig([try SteppedEngineTests.clip(seconds: 10)], loop: .item)
        var liveness = Liveness(stepLimit: .milliseconds(500))
        rig.player.play()
        let playing = Self.watch(rig.clock, rig.executor, rig.player, for: 3, tick: 0.5, &liveness)
        #expect(playing.allSatisfy { $0 == .alive }, "\(playing)")

        for stage in ["source", "present"] {
            rig.executor.held = [stage]
            let held = Self.watch(rig.clock, rig.executor, rig.player, for: 1.5, tick: 0.5, &liveness)
            #expect(held.first == .alive && held.last.flatMap(Self.stalled)?.hasPrefix("the \(stage) stage has been inside one step") == true,
                    "\(stage): \(held)")
            rig.executor.held = []
            let released = Self.watch(rig.clock, rig.executor, rig.player, for: 2, tick: 0.5, &liveness)
            #expect(released.last == .alive, "\(stage) released: \(released)")
        }

        rig.player.pause()
        let paused = Self.watch(rig.clock, rig.executor, rig.player, for: 60, tick: 5, &liveness)
        #expect(paused.allSatisfy { $0 == .alive }, "\(paused)")
        #expect(rig.player.health().rest == .paused)
        rig.player.stop()
    }

    /// A still picture up for a minute is one frame and no sound, and alive
    /// all along: its end is work scheduled.
    @Test func aStillPictureUpForAMinuteIsAlive() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-liveness-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try Command.run("ffmpeg", ["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                              "testsrc2=size=320x240:rate=1", "-frames:v", "1", "\(folder)/a.png"])
        guard made.status == 0 else { throw CommandError.failed("ffmpeg a.png", made) }
        let clock = VirtualClock(start: Self.start)
        var configuration = PlayerConfiguration(videoOutput: NullVideoOutput(clock: clock), audioOutput: nil, hostClock: clock)
        configuration.imageDuration = 90
        let player = QueuePlayer(items: [PlayerItem(source: "\(folder)/a.png")], configuration: configuration, threaded: false)
        let executor = StageExecutor(player: player, clock: clock)
        var liveness = Liveness(stepLimit: .seconds(5))
        player.play()
        let verdicts = Self.watch(clock, executor, player, for: 60, tick: 5, &liveness)
        #expect(verdicts.allSatisfy { $0 == .alive }, "\(verdicts)")
        let health = player.health()
        #expect(health.framesPresented == 1 && health.audioFramesWritten == 0 && health.rest == .frameScheduled, "\(health)")
        player.stop()
    }
}
