@testable import Marquee
import MarqueeTestSupport
import Testing

/// Issue 13, must-show 1: the engine's own stages, stepped by `StageExecutor`
/// on a virtual clock with seeded wake-up latency, in real-time mode (frames
/// timed against the audio clock, late frames dropped). Every outcome is
/// exact: the same frames, at the same times, on every run.
@Suite struct SteppedEngineTests {
    static let fps = 25
    static let frame = 1 / Double(fps)

    struct Rig {
        let clock = VirtualClock(start: HostTime(nanoseconds: 1_000_000_000))
        let video: RecordingVideoOutput
        let audio: NullAudioOutput
        let player: QueuePlayer
        let executor: StageExecutor

        init(_ sources: [String], loop: LoopMode = .none, passes: Int? = nil, between: PauseBetweenItems = .cut,
             seed: UInt64 = 0x5eed) {
            video = RecordingVideoOutput(clock: clock)
            audio = NullAudioOutput(format: AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16), clock: clock)
            player = StageExecutor.player(sources, video: video, audio: audio, clock: clock, loop: loop, passes: passes,
                                          between: between)
            executor = StageExecutor(player: player, clock: clock, latency: (seed, 0.002))
        }

        var indexes: [Int?] { video.frames.map(\.index) }
        var stats: PlaybackStats.Snapshot { player.stats.snapshot }
        var offsets: [Double] { player.stats.presentationLog.compactMap(\.avOffsetMs) }
    }

    static func clip(seconds: Int = 2) throws -> String {
        try Fixtures.path(Fixtures.indexed(seconds: seconds, fps: fps))
    }

    @Test func playPresentsEveryFrameOnTimeAgainstTheAudioClock() throws {
        let rig = Rig([try Self.clip()])
        rig.player.play()
        #expect(rig.executor.run(for: 10), "playback did not end")
        #expect(rig.indexes == (0..<50).map(Optional.some))
        #expect(rig.stats.framesDropped == 0)
        #expect(rig.stats.audioFramesWritten == 96000)
        #expect(rig.stats.underruns == 0)
        #expect(rig.player.timeControlStatus == .paused && rig.player.status == .readyToPlay)
        // Within a refresh (60 Hz) plus the seeded latency of the audio clock, every frame.
        let worst = rig.offsets.map(abs).max() ?? .infinity
        #expect(worst <= 1000 / 60.0 + 2, "A-V offset reached \(worst) ms")
        // Frames are one frame interval apart on the display, to within a refresh.
        let displays = rig.video.frames.map(\.display)
        let gaps = zip(displays.dropFirst(), displays).map { ($0 - $1).secondsDouble }
        #expect(gaps.dropFirst().allSatisfy { abs($0 - Self.frame) <= 1 / 60.0 + 1e-6 }, "gaps \(gaps.min()!)...\(gaps.max()!)")
    }

    /// Paused, nothing is presented and no stage is stepped at all: every
    /// wait is for a signal, and nothing raises one until `play`.
    @Test func pauseHoldsTheFrameWithoutStepsAndPlayGoesOnFromIt() throws {
        let rig = Rig([try Self.clip(seconds: 4)])
        rig.player.play()
        rig.executor.run(for: 1.0)
        rig.player.pause()
        rig.executor.run(for: 0.1)
        let shown = rig.video.frames.count
        let steps = rig.executor.steps
        let quiet = rig.executor.run(for: 10)
        #expect(quiet, "a paused engine still had deadlines")
        #expect(rig.executor.steps == steps, "stepped while paused: \(steps) -> \(rig.executor.steps)")
        #expect(rig.video.frames.count == shown)
        rig.player.play()
        #expect(rig.executor.run(for: 10))
        #expect(rig.indexes == (0..<100).map(Optional.some), "a frame was lost or repeated across the pause")
        #expect(rig.stats.framesDropped == 0)
    }

    /// Exact seeks to seeded random times, paused: the first frame after each
    /// is the one whose interval holds the target.
    @Test func exactSeeksLandOnTheFrameAtTheTime() throws {
        let rig = Rig([try Self.clip(seconds: 10)])
        rig.player.play()
        rig.executor.run(for: 0.5)
        rig.player.pause()
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<12 {
            let target = generator.next(upTo: 9.9)
            let before = rig.video.frames.count
            _ = rig.player.startSeek(to: MediaTime(seconds: target, preferredTimescale: 90_000), exact: true)
            rig.executor.run(for: 2)
            let expected = Int((target * Double(Self.fps)).rounded(.down))
            #expect(rig.video.frames.count == before + 1, "a paused seek shows exactly one frame")
            #expect(rig.video.frames.last?.index == expected, "seek to \(target) s")
            #expect(abs(rig.player.currentTime().seconds - Double(expected) * Self.frame) < 0.001)
        }
        // A keyframe seek lands on the keyframe before (one a second), then plays on from it.
        _ = rig.player.startSeek(to: MediaTime(seconds: 7.3, preferredTimescale: 1000), exact: false)
        rig.player.play()
        #expect(rig.executor.run(for: 10))
        let tail = rig.indexes.suffix(75)
        #expect(Array(tail) == (175..<250).map(Optional.some))
    }

    /// A seek issued before an earlier one showed its frame supersedes it:
    /// the earlier wait says false, the later true, and only the later frame
    /// shows. A wait that starts after its seek completed returns true at once.
    @Test func aLaterSeekCancelsAnEarlierOne() async throws {
        let rig = Rig([try Self.clip(seconds: 10)])
        rig.player.play()
        rig.executor.run(for: 0.5)
        rig.player.pause()
        let shown = rig.video.frames.count
        let first = try #require(rig.player.startSeek(to: MediaTime(seconds: 2, preferredTimescale: 1000), exact: false))
        let second = try #require(rig.player.startSeek(to: MediaTime(seconds: 5, preferredTimescale: 1000), exact: false))
        rig.executor.run(for: 2)
        #expect(await first() == false)
        #expect(await second() == true)
        #expect(rig.indexes[shown...] == [125])
    }

    /// 2x from the middle: frames are due twice as fast on the audio clock, so
    /// on a 60 Hz display every frame still shows, each one half-interval later.
    @Test func aRateChangeTakesEffectOnTheNextFrame() throws {
        let rig = Rig([try Self.clip(seconds: 4)])
        rig.player.play()
        rig.executor.run(for: 1.0)
        let switchedAt = rig.video.frames.count
        rig.player.rate = 2
        #expect(rig.executor.run(for: 10))
        #expect(rig.indexes == (0..<100).map(Optional.some))
        #expect(rig.stats.framesDropped == 0)
        let late = rig.video.frames[(switchedAt + 5)...].map(\.display)
        let span = (late.last! - late.first!).secondsDouble
        let expected = Double(late.count - 1) * Self.frame / 2
        #expect(abs(span - expected) <= 1 / 60.0, "\(late.count) frames at 2x took \(span) s, expected \(expected)")
        #expect(abs(Double(rig.stats.audioFramesWritten) - (1 + 3.0 / 2) * 48000) < 48000 * 0.05)
    }

    /// Three passes join frame to frame: no gap, repeat or skip at a seam,
    /// one end notification per pass, and the queue holds the item throughout.
    @Test func loopSeamsJoinFrameToFrame() throws {
        let rig = Rig([try Self.clip()], loop: .item, passes: 3)
        rig.player.play()
        #expect(rig.executor.run(for: 20))
        #expect(rig.indexes == (0..<150).map { Optional.some($0 % 50) })
        #expect(rig.stats.seams.count == 2)
        #expect(rig.stats.seams.allSatisfy { $0.gapMs <= 1 }, "seam gaps \(rig.stats.seams.map(\.gapMs)) ms")
        #expect(rig.stats.endNotifications == 3)
        #expect(rig.stats.framesDropped == 0)
        #expect(rig.player.currentItem != nil)
    }

    /// A playlist of two items ends: both play in full, the queue empties, the player is paused.
    @Test func theEndOfAPlaylistEmptiesTheQueueAndPauses() throws {
        let rig = Rig([try Self.clip(), try Self.clip(seconds: 4)])
        rig.player.play()
        #expect(rig.executor.run(for: 20))
        #expect(rig.indexes == (0..<50).map(Optional.some) + (0..<100).map(Optional.some))
        #expect(rig.stats.seams.count == 1)
        #expect(rig.stats.seams.allSatisfy { $0.gapMs <= 1 })
        #expect(rig.player.currentItem == nil)
        #expect(rig.player.items.isEmpty)
        #expect(rig.player.rate == 0)
        #expect(rig.stats.audioFramesWritten == 6 * 48000)
    }

    /// A 3 s pause between items holds the last frame with the device
    /// stopped: inside it the audio stage wakes at most once, the presenter
    /// (waiting on a clock that runs on the host's time, so it need not read
    /// it again) and the source not at all; the next item starts on time, in sync, from silence
    /// that was never written.
    @Test func aPauseBetweenItemsStopsTheDeviceAndWakesRarely() throws {
        let rig = Rig([try Self.clip(), try Self.clip()], between: .hold(seconds: 3))
        rig.player.play()
        rig.executor.run(for: 2.3)
        let before = rig.executor.steps
        rig.executor.run(for: 2.5)
        let inside = rig.executor.steps.merging(before) { $0 - $1 }
        #expect(rig.video.frames.count == 50, "the pause had ended early")
        #expect(inside["audio", default: 0] <= 2, "audio stepped \(inside["audio", default: 0]) times in 2.5 s of pause")
        #expect(inside["present", default: 0] <= 1, "presenter stepped \(inside["present", default: 0]) times")
        #expect(inside["source", default: 0] == 0)
        #expect(rig.executor.run(for: 10))
        #expect(rig.indexes == (0..<100).map { Optional.some($0 % 50) })
        #expect(rig.stats.framesDropped == 0)
        #expect(rig.stats.underruns == 0)
        #expect(rig.stats.audioFramesWritten == 2 * 96000, "silence was written into a device that stops for it")
        let gap = try #require(rig.stats.seams.first).gapMs
        #expect(abs(gap - 3000) <= 1000 / 60.0 + 2, "the last frame stayed \(gap) ms extra")
        let worst = rig.offsets.map(abs).max() ?? .infinity
        #expect(worst <= 1000 / 60.0 + 2, "A-V offset reached \(worst) ms")
    }

    /// Two runs with the same seed are the same run, display time for display time.
    @Test func aSeededRunIsExactlyRepeatable() throws {
        func run() throws -> [HostTime] {
            let rig = Rig([try Self.clip()], seed: 99)
            rig.player.play()
            rig.executor.run(for: 10)
            return rig.video.frames.map(\.display)
        }
        let first = try run()
        #expect(first.count == 50)
        #expect(try run() == first)
    }
}
