public enum SampleFormat: String, Sendable, Hashable, Codable {
    case s16, s32, float32

    public var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .s32, .float32: 4
        }
    }
}

/// The interleaved PCM layout an audio output takes.
public struct AudioFormat: Sendable, Hashable, Codable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: SampleFormat

    public init(sampleRate: Int, channels: Int, sampleFormat: SampleFormat) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
    }

    public var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }

    /// The time `frames` sample frames last, exact in the sample rate's timescale.
    public func duration(ofFrames frames: Int) -> MediaTime {
        MediaTime(value: Int64(frames), timescale: Int32(sampleRate))
    }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, \(sampleFormat.rawValue)" }
}

/// Interleaved PCM with the presentation time of its first sample frame.
public struct AudioBuffer: Sendable {
    public var pts: MediaTime
    public let format: AudioFormat
    public var bytes: [UInt8]

    public init(pts: MediaTime, format: AudioFormat, bytes: [UInt8]) {
        precondition(bytes.count % format.bytesPerFrame == 0, "partial sample frame")
        self.pts = pts
        self.format = format
        self.bytes = bytes
    }

    public var frameCount: Int { bytes.count / format.bytesPerFrame }
    public var duration: MediaTime { format.duration(ofFrames: frameCount) }
}

extension AudioBuffer {
    /// The buffer without its first `frames` sample frames, its pts moved on to match.
    public func droppingFirst(frames: Int) -> AudioBuffer {
        let dropped = min(max(frames, 0), frameCount)
        return AudioBuffer(pts: pts + format.duration(ofFrames: dropped), format: format,
                           bytes: Array(bytes[(dropped * format.bytesPerFrame)...]))
    }

    /// The buffer's first `frames` sample frames only.
    public func keepingFirst(frames: Int) -> AudioBuffer {
        let kept = min(max(frames, 0), frameCount)
        return AudioBuffer(pts: pts, format: format, bytes: Array(bytes[..<(kept * format.bytesPerFrame)]))
    }
}
