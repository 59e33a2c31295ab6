import CFFmpeg
import MarqueeCore

/// Plays audio a hair faster or slower than it was made, at the same sample
/// rate and layout: libswresample's compensation, which moves its
/// resampling filter's step by the ratio asked. A sound card whose crystal
/// runs a few hundred parts per million off the wall clock is kept in step
/// with it this way without a jump, and a change of pitch that small is
/// not heard.
///
/// Not thread-safe: the audio writer owns it. It is the one owner of its
/// SwrContext, made at the first buffer and freed by `reset` and deinit.
public final class DriftResampler {
    public let format: AudioFormat
    private var context: OpaquePointer?

    /// Output frames over which each buffer's compensation is spread: set
    /// afresh at every buffer, it never runs out, and 10^6 makes its step
    /// one part per million.
    static let compensationSpan: Int32 = 1_000_000
    /// The ratios it takes: far beyond a crystal's error, short of a pitch anyone hears.
    public static let ratios = 0.99...1.01

    public init(format: AudioFormat) {
        self.format = format
    }

    deinit { swr_free(&context) }

    /// `buffer` played at `ratio` output frames per input frame: above 1
    /// the sound lasts longer. What the filter holds back comes out with
    /// the next buffer (`latency`).
    /// - Throws: `FFmpegError` naming the libswresample call that failed.
    public func process(_ buffer: AudioBuffer, ratio: Double) throws(FFmpegError) -> AudioBuffer {
        precondition(buffer.format == format && Self.ratios.contains(ratio), "\(buffer.format) at \(ratio) into a \(format) resampler")
        let context = try prepared()
        let delta = Int32((Double(Self.compensationSpan) * (1 - 1 / ratio)).rounded())
        try check(swr_set_compensation(context, delta, Self.compensationSpan), "swr_set_compensation")
        // The first frame out is older than this buffer by what the filter held.
        let pts = buffer.pts.isValid ? buffer.pts - format.duration(ofFrames: Int(swr_get_delay(context, Int64(format.sampleRate)))) : buffer.pts
        let frames = Int32(buffer.frameCount)
        let capacity = try check(swr_get_out_samples(context, frames), "swr_get_out_samples")
        let (produced, bytes) = buffer.bytes.withUnsafeBytes { raw in
            var plane: UnsafePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return Self.convert(context, input: &plane, frames: frames, capacity: capacity, format: format)
        }
        try check(produced, "swr_convert")
        return AudioBuffer(pts: pts, format: format, bytes: bytes)
    }

    /// Input held inside the filter, in seconds: played with the next buffer.
    public var latency: Double {
        guard let context else { return 0 }
        return Double(swr_get_delay(context, Int64(format.sampleRate))) / Double(format.sampleRate)
    }

    /// What the filter still holds (the end of the sound), and a fresh start after it.
    /// - Throws: `FFmpegError` naming the libswresample call that failed.
    public func flush() throws(FFmpegError) -> AudioBuffer? {
        guard let context else { return nil }
        defer { reset() }
        let capacity = try check(swr_get_out_samples(context, 0), "swr_get_out_samples")
        let (produced, bytes) = Self.convert(context, input: nil, frames: 0, capacity: capacity, format: format)
        try check(produced, "swr_convert")
        return bytes.isEmpty ? nil : AudioBuffer(pts: .invalid, format: format, bytes: bytes)
    }

    /// Forgets what the filter holds: the next buffer starts a new sound.
    public func reset() { swr_free(&context) }

    /// swr_convert's result (checked by the caller) and the frames it made.
    private static func convert(_ context: OpaquePointer, input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, frames: Int32,
                                capacity: Int32, format: AudioFormat) -> (Int32, [UInt8]) {
        var bytes = [UInt8](repeating: 0, count: Int(capacity) * format.bytesPerFrame)
        let produced = bytes.withUnsafeMutableBytes { raw -> Int32 in
            var plane: UnsafeMutablePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return swr_convert(context, &plane, capacity, input, frames)
        }
        bytes.removeLast(bytes.count - Int(max(produced, 0)) * format.bytesPerFrame)
        return (produced, bytes)
    }

    /// The context, made on first use: the same format in and out, resampling forced
    /// (without it libswresample passes equal rates through and has nothing to compensate with).
    private func prepared() throws(FFmpegError) -> OpaquePointer {
        if let context { return context }
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(format.channels))
        defer { av_channel_layout_uninit(&layout) }
        // swr_alloc_set_opts2 takes the same layout for both sides, through two pointers.
        var inputLayout = layout
        let rate = Int32(format.sampleRate)
        var made: OpaquePointer?
        try check(swr_alloc_set_opts2(&made, &layout, format.sampleFormat.libav, rate, &inputLayout, format.sampleFormat.libav, rate, 0, nil),
                  "swr_alloc_set_opts2")
        guard let made else { throw .outOfMemory("swr_alloc_set_opts2") }
        context = made
        try check(av_opt_set_int(UnsafeMutableRawPointer(made), "swr_flags", Int64(SWR_FLAG_RESAMPLE), 0), "av_opt_set_int(swr_flags)")
        try check(swr_init(made), "swr_init")
        return made
    }
}
