@testable import Marquee
import MarqueeTestSupport
import Testing

/// Issue 36's screen power, through the engine: `setScreenPower(on:)` is
/// applied by the presenter stage, stepped by `StageExecutor` on a virtual
/// clock, to an output that records its screen state.
@Suite struct ScreenPowerTests {
    typealias Rig = SteppedEngineTests.Rig

    /// Off pauses, switches the output's screen off, and leaves every stage
    /// waiting for a signal: no frame, no step, as idle as paused. On
    /// switches it on and plays on from the frame it stopped at.
    @Test func offIsIdleAndOnPlaysOnFromTheSameFrame() throws {
        let rig = Rig([try SteppedEngineTests.clip(seconds: 4)])
        rig.player.play()
        rig.executor.run(for: 1.0)
        rig.player.setScreenPower(on: false)
        rig.executor.run(for: 0.1)
        #expect(!rig.player.isScreenOn && !rig.video.isScreenOn)
        #expect(rig.player.timeControlStatus == .paused)
        let shown = rig.video.frames.count
        let steps = rig.executor.steps
        #expect(rig.executor.run(for: 10), "an engine with the screen off still had deadlines")
        #expect(rig.executor.steps == steps, "stepped while off: \(steps) -> \(rig.executor.steps)")
        #expect(rig.video.frames.count == shown)
        rig.player.setScreenPower(on: true)
        #expect(rig.executor.run(for: 10), "playback did not end after the screen came on")
        #expect(rig.player.isScreenOn && rig.video.isScreenOn)
        #expect(rig.indexes == (0..<100).map(Optional.some), "a frame was lost or repeated across the screen's off time")
        #expect(rig.stats.framesDropped == 0)
    }

    /// A seek while off presents nothing until the screen is on; a pause
    /// while off means on shows that frame and stays paused.
    @Test func aSeekWhileOffWaitsForTheScreenAndAPauseKeepsItPaused() throws {
        let rig = Rig([try SteppedEngineTests.clip(seconds: 4)])
        rig.player.play()
        rig.executor.run(for: 0.5)
        rig.player.setScreenPower(on: false)
        rig.executor.run(for: 0.1)
        let shown = rig.video.frames.count
        _ = rig.player.startSeek(to: MediaTime(seconds: 2, preferredTimescale: 1000), exact: true)
        rig.executor.run(for: 2)
        #expect(rig.video.frames.count == shown, "a frame was presented while the screen was off")
        rig.player.pause()
        rig.player.setScreenPower(on: true)
        rig.executor.run(for: 2)
        #expect(rig.video.frames.count == shown + 1)
        #expect(rig.video.frames.last?.index == 2 * SteppedEngineTests.fps)
        #expect(rig.player.timeControlStatus == .paused, "paused while off, yet on resumed")
    }

    /// Play while off turns the screen on: a play button brings the picture back.
    @Test func playWhileOffTurnsTheScreenOn() throws {
        let rig = Rig([try SteppedEngineTests.clip(seconds: 2)])
        rig.player.play()
        rig.executor.run(for: 0.5)
        rig.player.setScreenPower(on: false)
        rig.executor.run(for: 0.1)
        #expect(!rig.video.isScreenOn)
        rig.player.play()
        #expect(rig.player.isScreenOn)
        #expect(rig.executor.run(for: 10))
        #expect(rig.video.isScreenOn)
        #expect(rig.indexes == (0..<50).map(Optional.some))
    }

    /// A player that was paused when the screen went off stays paused when it comes on.
    @Test func onResumesOnlyWhatOffPaused() throws {
        let rig = Rig([try SteppedEngineTests.clip(seconds: 2)])
        rig.player.play()
        rig.executor.run(for: 0.5)
        rig.player.pause()
        rig.player.setScreenPower(on: false)
        rig.player.setScreenPower(on: true)
        rig.executor.run(for: 1)
        #expect(rig.player.timeControlStatus == .paused && rig.video.isScreenOn)
    }
}
