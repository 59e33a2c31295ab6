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

        // The WAV holds exactly 50 passes of the audio the container declares:
        // the padding of the last AAC frame (the decoder gives it whole) is cut
        // at each seam, not played as a 256-sample hole in the tone.
        let samples = try wavSamples(try #require(run.audioPath))
        let demuxer = try Demuxer(source: path)
        let audio = try #require(demuxer.media.preferredTrack(.audio))
        let declared = Int((try #require(demuxer.declaredEnd(ofStream: audio.id)).seconds * 48000).rounded())
        #expect(try samplesInOnePass(path) > declared, "the fixture's last AAC frame should carry padding")
        #expect(abs(samples.count / 2 - 50 * declared) <= 50, "\(samples.count / 2) frames vs 50 x \(declared)")
        // No inserted silence: the 440 Hz bed never stops, so no 10 ms window is silent.
        let window = 480 * 2
        let silent = stride(from: 0, to: samples.count - window, by: window).filter { start in
            samples[start..<start + window].allSatisfy { abs(Int($0)) < 16 }
        }
        #expect(silent.isEmpty, "silent windows at \(silent.prefix(5).map { Double($0 / 2) / 48000 }) s")
    }

    /// Each frame belongs to its own pass at its own item time, the last one
    /// of a pass included: audio of the next pass is decoded while the video
    /// decoder still holds frames of this one, and must not move them on.
    @Test func everyFrameIsAttributedToItsOwnPass() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: true, loop: .item, passes: 3)
        try await run.playToEnd()
        let log = run.player.stats.presentationLog
        let indexes = run.video.frames.map(\.index)
        #expect(log.count == 150 && indexes.count == 150)
        for (position, record) in log.enumerated() {
            let (pass, index) = position.quotientAndRemainder(dividingBy: 50)
            #expect(record.pass == pass && abs(record.pts - Double(index) * 0.04) < 0.001,
                    "frame \(position): pass \(record.pass), item time \(record.pts) s; expected pass \(pass), \(Double(index) * 0.04) s")
            if record.pass != pass { break }
        }
    }
}
