import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// Must-show 2: 50 untimed passes of a 2 s clip loop without a seam.
@Suite struct LoopSeamTests {
    @Test func fiftyPassesLoopWithoutAGapARepeatOrASkip() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: true, wav: true, loop: .item, passes: 50)
        try await run.playToEnd()

        // Every frame, in order, 50 times: nothing repeated or skipped at any seam.
        let indexes = run.video.frames.map(\.index)
        #expect(indexes.count == 50 * 50)
        let expected = (0..<50).flatMap { _ in (0..<50).map(Optional.some) }
        #expect(indexes == expected)

        let stats = run.player.stats.snapshot
        #expect(stats.seams.count == 49)
        #expect(stats.seams.allSatisfy { $0.gapMs <= 40 }, "gaps: \(stats.seams.map(\.gapMs).max() ?? 0) ms")
        #expect(stats.seams.allSatisfy { $0.gapMs == 0 })
        #expect(stats.endNotifications == 50)
        #expect(run.eventLog.filter { if case .didPlayToEnd = $0 { true } else { false } }.count == 50)

        // The WAV holds exactly 50 passes of what one pass decodes to (± one AAC frame).
        let samples = try wavSamples(try #require(run.audioPath))
        let onePass = try samplesInOnePass(path)
        #expect(abs(samples.count / 2 - 50 * onePass) <= 1024, "\(samples.count / 2) frames vs 50 x \(onePass)")
        // No inserted silence: the 440 Hz bed never stops, so no 10 ms window is silent.
        let window = 480 * 2
        let silent = stride(from: 0, to: samples.count - window, by: window).filter { start in
            samples[start..<start + window].allSatisfy { abs(Int($0)) < 16 }
        }
        #expect(silent.isEmpty, "silent windows at \(silent.prefix(5).map { Double($0 / 2) / 48000 }) s")
    }
}
