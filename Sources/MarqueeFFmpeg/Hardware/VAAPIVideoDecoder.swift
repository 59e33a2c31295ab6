import CFFmpeg
import CMarqueeShims
import Glibc
import MarqueeCore

/// Decodes one video stream on a VA-API device: libavcodec's hwaccel with a
/// device context on the render node; each decoded surface is exported as
/// DRM PRIME dmabufs (`VASurfaceStorage`), so a display can scan it out
/// without a copy. Not thread-safe: the video decode thread owns it.
public final class VAAPIVideoDecoder: VideoDecoding {
    private let device: HardwareDeviceContext
    private let codec: CodecContext
    private var picture: StreamPicture
    public var devicePath: String { device.path }
    public var kind: VideoDecoderKind { .vaapi }
    public var decoderName: String { codec.codecName }

    /// Asks the driver whether it decodes the stream (profile, bit depth,
    /// size), then opens libavcodec on the device.
    /// - Throws: `HardwareDecodingError` saying what is missing or which call failed.
    public init(demuxer: Demuxer, stream index: Int, device path: String) throws(HardwareDecodingError) {
        do throws(FFmpegError) {
            try demuxer.readStreamInfo()
        } catch {
            throw .libav(device: path, error)
        }
        let stream = demuxer.stream(index)
        picture = StreamPicture(stream)
        try VADevice(path: path).checkDecodes(stream.pointee.codecpar)
        do throws(FFmpegError) {
            device = try HardwareDeviceContext(vaapi: path)
            codec = try CodecContext(stream: stream, source: demuxer.source, threads: 1, hardware: device)
        } catch {
            throw .libav(device: path, error)
        }
    }

    /// Whether the device would decode the stream, without opening a decoder
    /// (what `marquee hwdec FILE` reports).
    /// - Throws: the reason it would not, as `init` would throw it.
    public static func checkDecodes(demuxer: Demuxer, stream index: Int, device path: String) throws(HardwareDecodingError) {
        try VADevice(path: path).checkDecodes(demuxer.stream(index).pointee.codecpar)
    }

    public func decode(_ packet: Packet?) throws(FFmpegError) -> [VideoFrame] {
        var frames: [VideoFrame] = []
        try codec.decode(packet) { (frame) throws(FFmpegError) in
            guard frame.pointee.format == AV_PIX_FMT_VAAPI.rawValue else { throw Self.hwaccelRefused(codec.source) }
            let storage = try VASurfaceStorage(referencing: frame)
            var decoded = storage.videoFrame(pts: codec.presentationTime(frame),
                                             duration: MediaTime(libav: frame.pointee.pkt_duration, timeBase: codec.timeBase))
            picture.tag(&decoded, from: frame)
            frames.append(decoded)
        }
        return frames
    }

    public func flush() { codec.flush() }

    /// The error a software frame from this decoder raises: libavcodec's
    /// hwaccel could not be set up, and no retry will change that.
    private static func hwaccelRefused(_ source: String) -> FFmpegError {
        FFmpegError(code: marquee_averror(ENOSYS), call: "get_format",
                    message: "libavcodec could not set up VA-API for this stream and decoded in software", source: source,
                    kind: .hardwareRefused)
    }
}
