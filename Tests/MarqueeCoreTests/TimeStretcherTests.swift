import Foundation
import MarqueeCore
import Testing

@Suite struct TimeStretcherTests {
    static let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .float32)

    /// `seconds` of a 440 Hz tone in 1024-frame buffers.
    static func tone(seconds: Double) -> [AudioBuffer] {
        let frames = Int(seconds * 48000)
        return stride(from: 0, to: frames, by: 1024).map { start in
            let count = min(1024, frames - start)
            var samples: [Float] = []
            for offset in 0..<count {
                let phase: Double = 2 * Double.pi * 440 * Double(start + offset) / 48000
                let value = Float(0.5 * sin(phase))
                samples += [value, value]
            }
            return AudioBuffer(pts: MediaTime(value: Int64(start), timescale: 48000), format: format, floatSamples: samples)
        }
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
