import MarqueeCore
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// Every frame of every codec in the matrix comes out of our decoders, as many
/// as libavcodec's own ffprobe counts.
@Suite struct DecodeAllFramesTests {
    static let output = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .float32)

    @Test(arguments: Fixtures.codecMatrix)
    func decodedFrameCountsMatchFFprobe(_ recipe: Fixtures.Recipe) throws {
        let path = try Fixtures.path(recipe)
        let demuxer = try Demuxer(source: path)
        let videoTrack = try #require(demuxer.media.preferredTrack(.video))
        let audioTrack = try #require(demuxer.media.preferredTrack(.audio))
        let video = try VideoDecoder(demuxer: demuxer, stream: videoTrack.id, threads: 2)
        let audio = try AudioDecoder(demuxer: demuxer, stream: audioTrack.id, output: Self.output)

        var videoFrames = 0
        var lastPts = MediaTime.negativeInfinity
        var audioSamples = 0
        while let packet = try demuxer.read() {
            if packet.streamIndex == videoTrack.id {
                for frame in try video.decode(packet) {
                    videoFrames += 1
                    #expect(frame.pts > lastPts, "frames come out in presentation order")
                    lastPts = frame.pts
                    #expect(frame.width == 320 && frame.height == 240)
                    #expect(!frame.planes.isEmpty)
                }
            } else if packet.streamIndex == audioTrack.id {
                audioSamples += try audio.decode(packet).reduce(0) { $0 + $1.frameCount }
            }
        }
        videoFrames += try video.decode(nil).count
        audioSamples += try audio.decode(nil).reduce(0) { $0 + $1.frameCount }

        #expect(videoFrames == video.decodedFrames)
        #expect(video.decodedFrames == (try FFprobe.decodedFrameCount(path, stream: "v")))
        #expect(audio.decodedFrames == (try FFprobe.decodedFrameCount(path, stream: "a")))
        // 2 s of 48 kHz tone, give or take encoder priming and padding (one 1152-sample MP3 frame + delay).
        #expect(abs(audioSamples - 96000) < 2400, "got \(audioSamples) samples")
    }
}
