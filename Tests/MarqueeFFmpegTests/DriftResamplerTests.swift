import MarqueeCore
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// libswresample's compensation as `DriftResampler` drives it: the length
/// comes out at the ratio asked to the frame, and a tone stays a clean
/// tone (no click where a buffer ends or the ratio changes).
@Suite struct DriftResamplerTests {
    static let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16)

    /// `seconds` of a 1000 Hz tone at half scale, in 1024-frame buffers.
    static func tone(seconds: Double) -> [AudioBuffer] {
        ToneBuffers.tone(frequency: 1000, seconds: seconds, format: format)
    }

    /// Left-channel samples of `buffers`, as floats.
    static func left(_ buffers: [AudioBuffer]) -> [Float] {
        buffers.flatMap { buffer in buffer.floatSamples().enumerated().filter { $0.offset % 2 == 0 }.map(\.element) }
    }

    @Test(arguments: [1.0, 1.0002, 0.9998, 1.00125])
    func theLengthComesOutAtTheRatio(_ ratio: Double) throws {
        let resampler = DriftResampler(format: Self.format)
        let input = Self.tone(seconds: 30)
        var output = try input.map { try resampler.process($0, ratio: ratio) }
        #expect(resampler.latency > 0 && resampler.latency < 0.002, "holds \(resampler.latency * 1000) ms")
        output += try [resampler.flush()].compactMap { $0 }
        let produced = output.reduce(0) { $0 + $1.frameCount }
        let expected = Double(30 * 48000) * ratio
        // A few frames of rounding where the filter's tail is flushed.
        #expect(abs(Double(produced) - expected) <= 4, "\(produced) frames at \(ratio), expected \(expected)")
    }

    @Test func aToneStaysCleanWhileTheRatioMoves() throws {
        let resampler = DriftResampler(format: Self.format)
        // The ratio swings between its bounds' neighbourhood at every buffer: the worst a controller asks.
        let output = try Self.tone(seconds: 5).enumerated().map { index, buffer in
            try resampler.process(buffer, ratio: index % 2 == 0 ? 1.001 : 0.999)
        }
        let samples = Self.left(output).dropFirst(64)
        // A 1 kHz half-scale sine moves at most 2π·1000/48000·0.5 per sample; a click jumps further.
        let steepest = zip(samples, samples.dropFirst()).map { abs($1 - $0) }.max() ?? 0
        let bound = Float(2 * Double.pi * 1000 / 48000 * 0.5)
        #expect(steepest < bound * 1.02, "steepest step \(steepest), a sine's \(bound)")
        let peak = samples.map(abs).max() ?? 0
        #expect(abs(peak - 0.5) < 0.01, "peak \(peak)")
    }

    @Test func theFirstFrameOutIsTheFirstFrameIn() throws {
        let resampler = DriftResampler(format: Self.format)
        let input = Self.tone(seconds: 1)
        let output = try input.map { try resampler.process($0, ratio: 1) }
        let source = Self.left(input), played = Self.left(output)
        // Same sound, not shifted: the filter holds its tail back, not its head.
        let error = zip(source.prefix(40_000), played.prefix(40_000)).map { abs($0 - $1) }.max() ?? 1
        #expect(error < 0.002, "largest difference \(error)")
        #expect(output.first?.pts == input.first?.pts)
    }
}
