import Marquee
import MarqueeTestSupport
import Testing

@Suite struct PlayerItemTests {
    @Test func disablingTheAudioTrackPlaysSilently() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: true)
        let item = try #require(run.player.items.first)
        #expect(item.status == .unknown)
        try await item.load()
        #expect(item.status == .readyToPlay)
        #expect(abs(item.duration.seconds - 2) < 0.05)
        let audio = try #require(item.tracks.first { $0.track.mediaType == .audio })
        audio.isEnabled = false
        #expect(!audio.isEnabled)
        try await run.playToEnd()
        #expect(run.video.frames.count == 50)
        #expect(run.player.stats.snapshot.audioFramesWritten == 0)
    }

    @Test func loadedRangesCoverWhatWasDemuxed() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: true)
        let item = try #require(run.player.items.first)
        try await run.playToEnd()
        let range = try #require(item.loadedTimeRanges.first)
        #expect(range.start == .zero)
        #expect(abs(range.end.seconds - 2) < 0.05)
        #expect(item.seekableTimeRanges.first?.duration == item.duration)
        #expect(abs(item.currentTime().seconds - 1.96) < 0.001)
    }

    @Test func aFailedLoadSaysWhy() async throws {
        let item = PlayerItem(source: "/nonexistent/nothing.mkv")
        await #expect(throws: FFmpegError.self) { try await item.load() }
        #expect(item.status == .failed)
        #expect("\(item.error!)".contains("/nonexistent/nothing.mkv"))
    }
}
