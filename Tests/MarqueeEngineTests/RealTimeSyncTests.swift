import Marquee
import MarqueeTestSupport
import Testing

/// Must-show 1: real time, headless, the audio clock as master. Serialized:
/// a fixture encoded (or a second player run) beside a real-time run steals its CPU.
@Suite(.serialized) struct RealTimeSyncTests {
    @Test func tenSecondsAt25fpsPresentsInOrderInSyncWithAudio() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 10, fps: 25))
        let run = try Run([path], untimed: false)
        try await run.playToEnd(timeout: 60)

        let indexes = run.video.frames.compactMap(\.index)
        #expect(indexes.count >= 248, "presented \(indexes.count) of 250")
        #expect(indexes == indexes.sorted(), "frames out of order")
        #expect(Set(indexes).count == indexes.count, "a frame was shown twice")
        let stats = run.player.stats.snapshot
        let p99 = try #require(stats.avOffsetP99Ms)
        print("real time, 10 s at 25 fps: \(indexes.count) frames, \(stats.framesDropped) dropped, A-V p50 "
              + "\(stats.avOffsetP50Ms ?? .nan) ms, p99 \(p99) ms, max \(stats.avOffsetMaxMs ?? .nan) ms")
        #expect(p99 <= 10, "A-V offset p99 \(p99) ms")
        // Frames follow the audio clock: display times advance like the timeline.
        let frames = run.video.frames
        let span = (frames.last!.display - frames.first!.display).secondsDouble
        #expect(abs(span - 9.96) < 0.1, "10 s of video shown over \(span) s")
    }

    @Test func withoutAudioTheMonotonicClockPacesVideo() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: false, audio: false)
        try await run.playToEnd(timeout: 30)
        let frames = run.video.frames
        #expect(frames.count == 50)
        let span = (frames.last!.display - frames.first!.display).secondsDouble
        #expect(abs(span - 1.96) < 0.05, "2 s of video shown over \(span) s")
        #expect(run.player.stats.snapshot.avOffsetP99Ms == nil)
    }
}
