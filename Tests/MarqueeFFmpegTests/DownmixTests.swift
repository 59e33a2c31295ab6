import MarqueeCore
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// 5.1 on a stereo output: every channel is heard, the LFE included.
@Suite struct DownmixTests {
    @Test(arguments: [0, 1, 2, 3, 4, 5])
    func eachSurroundChannelReachesTheStereoMix(_ channel: Int) throws {
        let tones = (0..<6).map { $0 == channel ? "0.5*sin(2*PI*\($0 == 3 ? 60 : 440)*t)" : "0" }.joined(separator: "|")
        let recipe = Fixtures.Recipe(name: "surround-\(channel)", fileExtension: "mkv", arguments: [
            "-f", "lavfi", "-i", "aevalsrc=\(tones):c=5.1:s=48000:d=1", "-c:a", "pcm_s16le",
        ])
        let demuxer = try Demuxer(source: try Fixtures.path(recipe))
        let track = try #require(demuxer.media.preferredTrack(.audio))
        #expect(track.audio?.channels == 6)
        let decoder = try AudioDecoder(demuxer: demuxer, stream: track.id,
                                       output: AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .float32))
        var samples: [Float] = []
        while let packet = try demuxer.read() { samples += try decoder.decode(packet).flatMap { $0.floatSamples() } }
        samples += try decoder.decode(nil).flatMap { $0.floatSamples() }
        let rms = (samples.reduce(0) { $0 + $1 * $1 } / Float(max(samples.count, 1))).squareRoot()
        #expect(rms > 0.05, "channel \(channel) is missing from the stereo mix (RMS \(rms))")
    }
}
