import MarqueeCore
import MarqueeTestSupport
import Testing

@Suite struct TimeStretcherTests {
    static let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .float32)

    /// `seconds` of a 440 Hz tone at half scale, in 1024-frame buffers.
    static func tone(seconds: Double) -> [AudioBuffer] {
        ToneBuffers.tone(frequency: 440, seconds: seconds, format: format)
    }

    @Test(arguments: [0.5, 0.75, 1.5, 2.0])
    func outputLengthIsInputLengthOverRate(_ rate: Double) {
        var stretcher = TimeStretcher(format: Self.format)
        let output = Self.tone(seconds: 4).reduce(0) { $0 + stretcher.process($1, rate: rate).frameCount }
        let expected = 4 * 48000 / rate
        // The stretcher holds back up to one window (40 ms) of input.
        #expect(abs(Double(output) - expected) <= 0.04 * 48000 / rate + 1, "\(output) frames, expected \(expected)")
    }

    @Test func rateOnePassesThroughUntouched() {
        var stretcher = TimeStretcher(format: Self.format)
        let input = Self.tone(seconds: 0.1)
        for buffer in input { #expect(stretcher.process(buffer, rate: 1).bytes == buffer.bytes) }
    }
}
