extension AudioBuffer {
    /// The samples as interleaved Floats in -1...1, whatever the sample format.
    public func floatSamples() -> [Float] {
        bytes.withUnsafeBytes { raw -> [Float] in
            switch format.sampleFormat {
            case .float32: return Array(raw.bindMemory(to: Float.self))
            case .s16: return raw.bindMemory(to: Int16.self).map { Float($0) / 32768 }
            case .s32: return raw.bindMemory(to: Int32.self).map { Float(Double($0) / 2_147_483_648) }
            }
        }
    }

    /// A buffer in `format` holding `samples` (interleaved, -1...1, clipped).
    public init(pts: MediaTime, format: AudioFormat, floatSamples samples: [Float]) {
        var bytes = [UInt8](repeating: 0, count: samples.count * format.sampleFormat.bytesPerSample)
        bytes.withUnsafeMutableBytes { raw in
            switch format.sampleFormat {
            case .float32:
                for (index, sample) in samples.enumerated() { raw.storeBytes(of: sample, toByteOffset: index * 4, as: Float.self) }
            case .s16:
                for (index, sample) in samples.enumerated() {
                    let clipped = Int16(max(-32768, min(32767, (sample * 32768).rounded())))
                    raw.storeBytes(of: clipped, toByteOffset: index * 2, as: Int16.self)
                }
            case .s32:
                for (index, sample) in samples.enumerated() {
                    let scaled = max(-2_147_483_648, min(2_147_483_647, (Double(sample) * 2_147_483_648).rounded()))
                    raw.storeBytes(of: Int32(scaled), toByteOffset: index * 4, as: Int32.self)
                }
            }
        }
        self.init(pts: pts, format: format, bytes: bytes)
    }

    /// Software gain: every sample multiplied by `gain` (0 = silence).
    public func scaled(by gain: Float) -> AudioBuffer {
        if gain == 0 { return AudioBuffer(pts: pts, format: format, bytes: [UInt8](repeating: 0, count: bytes.count)) }
        return AudioBuffer(pts: pts, format: format, floatSamples: floatSamples().map { $0 * gain })
    }
}
