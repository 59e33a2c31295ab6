import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// Issue 22, must-show 2 (real time): at -1 and -2 on a display at 60 Hz,
/// a 2 s GOP clip plays backwards in 1/|rate| of its length with under 1 %
/// of its frames dropped, and its sound is not heard. In the real-time
/// suite, which CI runs alone.
extension RealTimeSyncTests {
    @Test(arguments: [-1.0, -2.0])
    func backwardsInRealTimeDropsUnderOnePercentMuted(_ rate: Double) async throws {
        let path = try Fixtures.path(ReverseTests.closedGOP)
        let run = try Run([path], untimed: false, wav: false)
        try await run.playToEnd(rate: rate, timeout: 60)
        let stats = run.player.stats.snapshot
        let frames = run.video.frames
        #expect(frames.count + stats.framesDropped == 150)
        #expect(Double(stats.framesDropped) < 0.01 * 150, "\(stats.framesDropped) of 150 frames dropped at \(rate)")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.pts > $1.pts }, "not newest first")
        let shown = (frames.last!.display - frames.first!.display).secondsDouble + 0.04 / abs(rate)
        #expect(abs(shown - 6 / abs(rate)) < 0.1 * 6 / abs(rate), "6 s backwards at \(rate) took \(shown) s")
        #expect(stats.audioFramesWritten == 0, "\(stats.audioFramesWritten) audio frames written backwards")
    }
}
