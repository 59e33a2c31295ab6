import CFFmpeg
import MarqueeCore

/// Keeps a decoded AVFrame's buffers alive for as long as any `VideoFrame`
/// points into them.
///
/// `@unchecked Sendable`: the frame is never written after decoding; libav's
/// buffer references are atomically counted, and only deinit frees it.
final class AVFrameStorage: FrameStorage, @unchecked Sendable {
    let frame: UnsafeMutablePointer<AVFrame>

    /// Takes a new reference to `source`'s buffers.
    init(referencing source: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        guard let frame = av_frame_alloc() else { throw .outOfMemory("av_frame_alloc") }
        let code = av_frame_ref(frame, source)
        if code < 0 {
            var doomed: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&doomed)
            throw FFmpegError(code: code, call: "av_frame_ref")
        }
        self.frame = frame
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&doomed)
    }
}

/// Decodes one video stream in software with libavcodec's threads.
/// Not thread-safe: the video decode thread owns it.
public final class VideoDecoder: VideoDecoding {
    private let codec: CodecContext
    private var picture: StreamPicture
    /// Frames decoded since creation, for stats and tests.
    public private(set) var decodedFrames = 0

    /// - Parameters:
    ///   - threads: decoder threads (a count alone: frame and slice threads; 0 lets libavcodec pick).
    ///   - lowres: decode at 1/2^lowres of the size where the codec can (JPEG).
    public init(demuxer: Demuxer, stream: Int, threads: DecoderThreads = 0, lowres: Int = 0) throws(FFmpegError) {
        codec = try CodecContext(stream: demuxer.stream(stream), source: demuxer.source, threads: threads, lowres: lowres)
        picture = StreamPicture(demuxer.stream(stream))
    }

    /// Opened from parameters copied earlier, with the stream's picture tags read then.
    init(parameters: CodecParameters, picture: StreamPicture, source: String, threads: DecoderThreads,
         lowres: Int) throws(FFmpegError) {
        codec = try CodecContext(parameters: parameters.pointer, timeBase: parameters.timeBase, source: source, threads: threads,
                                 lowres: lowres)
        self.picture = picture
    }

    /// libavcodec's name of the decoder in use ("h264", "libdav1d").
    public var decoderName: String { codec.codecName }
    public var kind: VideoDecoderKind { .software }

    /// Decodes `packet` (nil drains the decoder at the end of the stream) and
    /// returns the frames that became ready, in presentation order.
    public func decode(_ packet: Packet?) throws(FFmpegError) -> [VideoFrame] {
        var frames: [VideoFrame] = []
        try codec.decode(packet) { (frame) throws(FFmpegError) in
            decodedFrames += 1
            frames.append(try makeFrame(frame))
        }
        return frames
    }

    /// Forgets buffered frames, e.g. after a seek.
    public func flush() { codec.flush() }

    private func makeFrame(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> VideoFrame {
        let storage = try AVFrameStorage(referencing: frame)
        var decoded = storage.videoFrame(pts: codec.presentationTime(frame),
                                         duration: MediaTime(libav: frame.pointee.pkt_duration, timeBase: codec.timeBase))
        picture.tag(&decoded, from: frame)
        return decoded
    }
}

extension PixelFormat {
    init(libav format: AVPixelFormat) {
        switch format {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: self = .yuv420p
        case AV_PIX_FMT_NV12: self = .nv12
        case AV_PIX_FMT_YUV420P10LE: self = .yuv420p10
        case AV_PIX_FMT_P010LE: self = .p010
        case AV_PIX_FMT_BGR0: self = .xrgb8888
        case AV_PIX_FMT_RGB24: self = .rgb24
        default:
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
            let isHardware = av_pix_fmt_desc_get(format).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) != 0 } ?? false
            self = isHardware ? .hardware(name) : .other(name)
        }
    }

    var libav: AVPixelFormat {
        switch self {
        case .yuv420p: AV_PIX_FMT_YUV420P
        case .nv12: AV_PIX_FMT_NV12
        case .yuv420p10: AV_PIX_FMT_YUV420P10LE
        case .p010: AV_PIX_FMT_P010LE
        case .xrgb8888: AV_PIX_FMT_BGR0
        case .rgb24: AV_PIX_FMT_RGB24
        case .hardware(let name), .other(let name): av_get_pix_fmt(name)
        }
    }
}
