import CFFmpeg
import MarqueeCore

/// Converts decoded audio to one interleaved output format with libswresample:
/// sample format, rate and channel count (5.1 is downmixed with the default
/// matrix, so centre and surrounds are heard on stereo).
///
/// The input format may change mid-stream (some streams switch layouts); the
/// converter is rebuilt when it does. Not thread-safe.
public final class Resampler {
    public let output: AudioFormat
    private var context: OpaquePointer?
    private var inputKey: InputKey?
    private let source: String
    /// Presentation time of the next output sample, carried across input frames
    /// that have no timestamp of their own.
    private var nextPts: MediaTime = .invalid

    private struct InputKey: Equatable {
        var rate: Int32
        var format: Int32
        var channels: Int32
        var order: UInt32
        var mask: UInt64
    }

    public init(output: AudioFormat, source: String = "") {
        self.output = output
        self.source = source
    }

    deinit { swr_free(&context) }

    /// Converts one decoded frame; `pts` is the frame's presentation time.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, pts: MediaTime) throws(FFmpegError) -> AudioBuffer {
        try configure(for: frame)
        if pts.isValid {
            // Samples still inside the converter came from earlier input: the
            // first sample out is that much older than this frame's pts.
            let buffered = swr_get_delay(context, Int64(output.sampleRate))
            nextPts = pts - output.duration(ofFrames: Int(buffered))
        }
        let capacity = Int(swr_get_out_samples(context, frame.pointee.nb_samples))
        let input = UnsafeMutableRawPointer(frame.pointee.extended_data).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        return try run(input: input, inputFrames: frame.pointee.nb_samples, capacity: capacity)
    }

    /// Returns what is still buffered inside the converter (end of stream).
    public func drain() throws(FFmpegError) -> AudioBuffer? {
        guard context != nil else { return nil }
        let capacity = Int(swr_get_out_samples(context, 0))
        guard capacity > 0 else { return nil }
        let buffer = try run(input: nil, inputFrames: 0, capacity: capacity)
        return buffer.frameCount > 0 ? buffer : nil
    }

    /// Forgets buffered samples, e.g. after a seek.
    public func reset() {
        swr_free(&context)
        inputKey = nil
        nextPts = .invalid
    }

    private func run(input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, inputFrames: Int32, capacity: Int) throws(FFmpegError) -> AudioBuffer {
        var bytes = [UInt8](repeating: 0, count: max(capacity, 0) * output.bytesPerFrame)
        let produced = bytes.withUnsafeMutableBytes { raw -> Int32 in
            var planes: UnsafeMutablePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return swr_convert(context, &planes, Int32(capacity), input, inputFrames)
        }
        try check(produced, "swr_convert", source: source)
        bytes.removeLast(bytes.count - Int(produced) * output.bytesPerFrame)
        let buffer = AudioBuffer(pts: nextPts, format: output, bytes: bytes)
        if nextPts.isValid { nextPts = nextPts + buffer.duration }
        return buffer
    }

    private func configure(for frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        let layout = frame.pointee.ch_layout
        let key = InputKey(rate: frame.pointee.sample_rate, format: frame.pointee.format,
                           channels: layout.nb_channels, order: layout.order.rawValue, mask: layout.u.mask)
        guard key != inputKey else { return }
        swr_free(&context)
        var inputLayout = layout
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(output.channels))
        defer { av_channel_layout_uninit(&outputLayout) }
        try check(swr_alloc_set_opts2(&context, &outputLayout, output.sampleFormat.libav, Int32(output.sampleRate),
                                      &inputLayout, AVSampleFormat(frame.pointee.format), frame.pointee.sample_rate,
                                      0, nil), "swr_alloc_set_opts2", source: source)
        // libswresample drops the LFE channel when downmixing unless told a
        // level; a kiosk's stereo speakers should still carry the bass.
        try check(av_opt_set_double(UnsafeMutableRawPointer(context), "lfe_mix_level", 0.5.squareRoot(), 0),
                  "av_opt_set_double(lfe_mix_level)", source: source)
        try check(swr_init(context), "swr_init", source: source)
        inputKey = key
    }
}

extension SampleFormat {
    var libav: AVSampleFormat {
        switch self {
        case .s16: AV_SAMPLE_FMT_S16
        case .s32: AV_SAMPLE_FMT_S32
        case .float32: AV_SAMPLE_FMT_FLT
        }
    }
}
