import CFFmpeg
import MarqueeCore

/// Decodes one audio stream and hands out PCM in the requested format.
/// Not thread-safe: the audio decode thread owns it.
public final class AudioDecoder {
    private let codec: CodecContext
    private let resampler: Resampler
    /// Frames (codec access units) decoded since creation, for stats and tests.
    public private(set) var decodedFrames = 0

    public init(demuxer: Demuxer, stream: Int, output: AudioFormat) throws(FFmpegError) {
        codec = try CodecContext(stream: demuxer.stream(stream), source: demuxer.source, threads: 1)
        resampler = Resampler(output: output, source: demuxer.source)
    }

    public var output: AudioFormat { resampler.output }
    public var decoderName: String { codec.codecName }

    /// Decodes `packet` (nil drains the decoder and the resampler at the end of
    /// the stream) and returns the PCM that became ready.
    public func decode(_ packet: Packet?) throws(FFmpegError) -> [AudioBuffer] {
        var buffers: [AudioBuffer] = []
        try codec.decode(packet) { (frame) throws(FFmpegError) in
            decodedFrames += 1
            let buffer = try resampler.convert(frame, pts: codec.presentationTime(frame))
            if buffer.frameCount > 0 { buffers.append(buffer) }
        }
        if packet == nil, let tail = try resampler.drain() { buffers.append(tail) }
        return buffers
    }

    /// Forgets buffered audio, e.g. after a seek.
    public func flush() {
        codec.flush()
        resampler.reset()
    }
}
