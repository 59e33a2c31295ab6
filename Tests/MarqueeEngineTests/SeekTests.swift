import Marquee
import MarqueeTestSupport
import Synchronization
import Testing

/// Must-show 3: exact seeks land on the frame at the time; default seeks on the keyframe before.
@Suite(.serialized) struct SeekTests {
    static let fps = 25

    @Test func exactSeeksPresentTheFrameAtThatTimeFirst() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 10, fps: Self.fps))
        let run = try Run([path], untimed: false)
        run.player.play()
        // Paused, so nothing of the old position can be presented once the seek starts.
        run.player.pause()
        try await Task.sleep(for: .milliseconds(200))
        var generator = SeededGenerator(seed: 0x5eec)
        for _ in 0..<20 {
            let target = Double.random(in: 0..<9.9, using: &generator)
            let before = run.video.frames.count
            let finished = await run.player.seek(to: MediaTime(seconds: target, preferredTimescale: 90_000),
                                                 toleranceBefore: .zero, toleranceAfter: .zero)
            #expect(finished)
            // After a seek the first frame presented is the one whose interval holds the target.
            let first = try #require(run.video.frames.dropFirst(before).first)
            let expected = Int((target * Double(Self.fps)).rounded(.down))
            #expect(first.index == expected, "seek to \(target) s showed frame \(first.index ?? -1), wanted \(expected)")
            #expect(abs(run.player.currentTime().seconds - Double(expected) / Double(Self.fps)) < 0.001)
        }
        run.player.stop()
    }

    @Test func defaultSeeksLandOnTheKeyframeBefore() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 10, fps: Self.fps))
        let run = try Run([path], untimed: false)
        run.player.play()
        run.player.pause()
        // Let a frame already on its way to the display land before counting.
        try await Task.sleep(for: .milliseconds(200))
        for target in [0.5, 3.96, 4.0, 7.3, 9.5] {
            let before = run.video.frames.count
            #expect(await run.player.seek(to: MediaTime(seconds: target, preferredTimescale: 1000)))
            let keyframe = Int(target.rounded(.down)) * Self.fps // one keyframe a second
            #expect(run.video.frames[before...].first?.index == keyframe, "seek to \(target)")
        }
        run.player.stop()
    }

    /// A seek past the end lands on the end: it completes, even paused before
    /// anything was shown, and playing then finishes at once. (It used to wait
    /// for a first frame that never came: `--start` past the end hung.)
    @Test(arguments: [true, false])
    func aSeekPastTheEndCompletesAndPlaybackFinishes(withVideo: Bool) async throws {
        let path = withVideo ? try Fixtures.path(Fixtures.indexed(seconds: 2, fps: Self.fps))
            : "\(SharedMedia.directory)/androidx/sample_audio_only.mp4"
        let run = try Run([path], untimed: false)
        let result = Mutex<Bool?>(nil)
        Task {
            let finished = await run.player.seek(to: MediaTime(seconds: 100, preferredTimescale: 1000),
                                                 toleranceBefore: .zero, toleranceAfter: .zero)
            result.withLock { $0 = finished }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while result.withLock({ $0 }) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(result.withLock { $0 } == true, "the seek past the end did not complete")
        try await run.playToEnd(timeout: 10)
        #expect(run.video.frames.isEmpty, "a frame from before the end was shown")
    }
}
