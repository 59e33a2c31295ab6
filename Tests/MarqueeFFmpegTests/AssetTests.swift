import Marquee
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

@Suite struct AssetTests {
    @Test func loadsTracksAndDurationOfAGeneratedClip() async throws {
        let path = try Fixtures.path(Fixtures.codecMatrix[0])
        let asset = Asset(source: path)
        let (tracks, duration, playable) = try await asset.load(.tracks, .duration, .isPlayable)
        #expect(playable)
        #expect(abs(duration.seconds - 2.0) < 0.05)
        let video = try #require(tracks.first { $0.mediaType == .video }?.video)
        #expect(video.width == 320 && video.height == 240)
        #expect(video.frameRate == 25)
        #expect(video.orientation == .upright)
        let audio = try #require(tracks.first { $0.mediaType == .audio })
        #expect(audio.codec == "aac")
        #expect(audio.audio?.sampleRate == 48000)
        #expect(audio.audio?.channelLayout == "stereo")
    }

    @Test func aMissingFileFailsWithTheCallAndThePath() async throws {
        let asset = Asset(source: "/nonexistent/clip.mp4")
        let error = try await #require(throws: FFmpegError.self) { try await asset.load(.tracks) }
        #expect(error.call == "avformat_open_input")
        #expect(error.description.contains("/nonexistent/clip.mp4"))
        #expect(error.description.contains("No such file or directory"))
    }

    @Test func readsRotationFromTheDisplayMatrix() async throws {
        let path = "\(SharedMedia.directory)/androidx/internal_emulator_transformer_output_270_rotated.mp4"
        let tracks = try await Asset(source: path).load(.tracks)
        #expect(tracks.first { $0.mediaType == .video }?.video?.orientation == Orientation(rotation: 270))
    }

    @Test func aServerThatNeverAnswersFailsWithinTheTimeout() throws {
        let server = try SilentServer()
        // Timed on this thread: an async test's wall time would include waiting
        // for the cooperative pool, which other (blocking) tests may be holding.
        let started = ContinuousClock.now
        let error = try #require(throws: FFmpegError.self) {
            try MediaProber.describe("http://127.0.0.1:\(server.port)/stream.m3u8", timeout: 1)
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(error.isInterrupted)
        #expect(error.description.contains("127.0.0.1:\(server.port)"))
    }
}
