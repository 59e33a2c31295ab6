import Foundation
import MarqueeCore

/// A pure tone at half scale, the same on both channels of a stereo
/// `format`, cut into 1024-frame buffers stamped with their first frame's
/// time: what audio processing tests feed in and look for.
public enum ToneBuffers {
    public static func tone(frequency: Double, seconds: Double, format: AudioFormat) -> [AudioBuffer] {
        let rate = Double(format.sampleRate)
        let frames = Int(seconds * rate)
        return stride(from: 0, to: frames, by: 1024).map { start in
            var samples: [Float] = []
            for offset in 0..<min(1024, frames - start) {
                let value = Float(0.5 * sin(2 * Double.pi * frequency * Double(start + offset) / rate))
                samples += [value, value]
            }
            return AudioBuffer(pts: MediaTime(value: Int64(start), timescale: Int32(format.sampleRate)), format: format, floatSamples: samples)
        }
    }
}
