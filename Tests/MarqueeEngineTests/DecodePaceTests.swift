@testable import Marquee
import Testing

/// Issue 42: when the source counts as behind (`DecodePace`): over a window
/// of frames, work beyond half of their time on screen; the window then
/// starts over, and frameless steps (sound, a packet of a frame to come)
/// count toward the next frame's work. The first window after a start is
/// not judged.
@Suite struct DecodePaceTests {
    /// A pace past its start's window (which was far behind, and not judged).
    static func settled() -> DecodePace {
        var pace = DecodePace()
        #expect(!window(work: 1.0, pace: &pace), "the start's window is not judged")
        return pace
    }

    @Test func theFirstWindowAfterAStartIsNotJudged() {
        var pace = Self.settled()
        #expect(Self.window(work: 1.0, pace: &pace), "the next one is")
    }

    /// A window of frames at 30 fps, each made in `work` seconds; true when any step said behind.
    static func window(work: Double, frames: Int = DecodePace.window, pace: inout DecodePace) -> Bool {
        (0..<frames).map { _ in pace.add(work: work, frames: 1, shownFor: 1.0 / 30) }.contains(true)
    }

    @Test func underHalfTheFrameTimeKeepsUp() {
        var pace = Self.settled()
        #expect(!Self.window(work: 0.016, pace: &pace))
        #expect(!Self.window(work: 0.001, pace: &pace))
    }

    @Test func overHalfTheFrameTimeIsBehindOnceAWindow() {
        var pace = Self.settled()
        #expect(!Self.window(work: 0.018, frames: DecodePace.window - 1, pace: &pace), "not before a full window")
        let behind = pace.add(work: 0.018, frames: 1, shownFor: 1.0 / 30)
        #expect(behind)
        // Started over: the next window is judged on its own.
        #expect(!Self.window(work: 0.010, pace: &pace))
    }

    @Test func oneSlowKeyframeInAWindowIsNotBehind() {
        var pace = Self.settled()
        _ = pace.add(work: 0.120, frames: 1, shownFor: 1.0 / 30)
        #expect(!Self.window(work: 0.010, frames: DecodePace.window - 1, pace: &pace))
    }

    @Test func stepsWithoutAFrameAddTheirWork() {
        var pace = Self.settled()
        var behind = false
        for _ in 0..<DecodePace.window {
            // Sound and reading: three steps of 6 ms, then the frame's own 6 ms.
            for _ in 0..<3 { behind = pace.add(work: 0.006, frames: 0, shownFor: 0) || behind }
            behind = pace.add(work: 0.006, frames: 1, shownFor: 1.0 / 30) || behind
        }
        #expect(behind, "24 ms a 33 ms frame is behind, though each frame's own decode is 6 ms")
    }

    @Test func fasterPlaybackHasLessTimeAFrame() {
        var pace = Self.settled()
        // 10 ms a frame keeps up at 1x (33 ms) but not at 4x (8 ms shown).
        #expect(!Self.window(work: 0.010, pace: &pace))
        let behind = (0..<DecodePace.window).map { _ in pace.add(work: 0.010, frames: 1, shownFor: 1.0 / 120) }.contains(true)
        #expect(behind)
    }
}
