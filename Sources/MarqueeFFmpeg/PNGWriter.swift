import CFFmpeg
import CMarqueeShims
import MarqueeCore

/// Writes frames as PNG files with libavcodec's png encoder, after converting
/// them to 8-bit RGB (PNG is lossless, so the file holds exactly that RGB).
///
/// Owns the encoder (rebuilt when the picture size changes), its packet and
/// the frame header that points the encoder at a `VideoFrame`'s planes.
/// Not thread-safe: one writer per thread.
public final class PNGWriter {
    private let converter = PixelConverter()
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    /// Only borrows planes (no buffer references), so unref never frees frame memory.
    private let input: UnsafeMutablePointer<AVFrame>

    public init() throws(FFmpegError) {
        guard let packet = av_packet_alloc() else { throw .outOfMemory("av_packet_alloc") }
        guard let input = av_frame_alloc() else {
            var doomed: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&doomed)
            throw .outOfMemory("av_frame_alloc")
        }
        self.packet = packet
        self.input = input
    }

    deinit {
        avcodec_free_context(&encoder)
        var doomedPacket: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&doomedPacket)
        var doomedFrame: UnsafeMutablePointer<AVFrame>? = input
        av_frame_free(&doomedFrame)
    }

    /// Encodes `frame` (any software pixel format) and writes it to `path`,
    /// replacing any file there. Blocks for the encode and the write.
    /// - Throws: `FFmpegError` naming the libav call, with `path` as its source.
    public func write(_ frame: VideoFrame, to path: String) throws(FFmpegError) {
        defer { av_packet_unref(packet) }
        try encodeIntoPacket(frame, source: path)
        try save(packet.pointee.data, count: Int(packet.pointee.size), to: path)
    }

    /// The PNG file's bytes for `frame` (any software pixel format), in memory.
    /// - Throws: `FFmpegError` naming the libav call, with "<png>" as its source.
    public func encode(_ frame: VideoFrame) throws(FFmpegError) -> [UInt8] {
        defer { av_packet_unref(packet) }
        try encodeIntoPacket(frame, source: "<png>")
        guard let data = packet.pointee.data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }

    /// `frame` converted to RGB24 and encoded into `packet` (the caller unrefs it).
    private func encodeIntoPacket(_ frame: VideoFrame, source: String) throws(FFmpegError) {
        let rgb: VideoFrame
        do { rgb = try converter.convert(frame, to: .rgb24) } catch { throw error.at(source) }
        try encode(rgb, with: try encoder(width: rgb.width, height: rgb.height, path: source), path: source)
    }

    private func encode(_ rgb: VideoFrame, with encoder: UnsafeMutablePointer<AVCodecContext>, path: String) throws(FFmpegError) {
        input.pointee.width = Int32(rgb.width)
        input.pointee.height = Int32(rgb.height)
        input.pointee.format = AV_PIX_FMT_RGB24.rawValue
        input.pointee.data.0 = UnsafeMutablePointer(mutating: rgb.planes[0].base.assumingMemoryBound(to: UInt8.self))
        input.pointee.linesize.0 = Int32(rgb.planes[0].bytesPerRow)
        // The encoder copies a frame without buffer references before send returns,
        // so the header can forget the borrowed planes at once.
        defer { av_frame_unref(input) }
        try withExtendedLifetime(rgb) { () throws(FFmpegError) in
            _ = try check(avcodec_send_frame(encoder, input), "avcodec_send_frame", source: path)
        }
        try check(avcodec_receive_packet(encoder, packet), "avcodec_receive_packet", source: path)
    }

    /// The open encoder for this size; PNG is intra-only, so one context serves
    /// any number of pictures of the same size.
    private func encoder(width: Int, height: Int, path: String) throws(FFmpegError) -> UnsafeMutablePointer<AVCodecContext> {
        if let encoder, encoder.pointee.width == Int32(width), encoder.pointee.height == Int32(height) { return encoder }
        avcodec_free_context(&encoder)
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw FFmpegError(code: marquee_averror(ENOSYS), call: "avcodec_find_encoder", message: "no png encoder", source: path)
        }
        guard let context = avcodec_alloc_context3(codec) else { throw .outOfMemory("avcodec_alloc_context3", source: path) }
        encoder = context
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_RGB24
        context.pointee.time_base = AVRational(num: 1, den: 1)
        do throws(FFmpegError) {
            try check(avcodec_open2(context, codec, nil), "avcodec_open2", source: path)
        } catch {
            avcodec_free_context(&encoder)
            throw error
        }
        return context
    }

    /// Writes the encoded bytes through libavformat's I/O layer, so a failed
    /// open, write or close is an `FFmpegError` like the rest.
    private func save(_ bytes: UnsafeMutablePointer<UInt8>?, count: Int, to path: String) throws(FFmpegError) {
        var io: UnsafeMutablePointer<AVIOContext>?
        // "file:" so a name with a colon ("take:2.png") is never read as a protocol.
        try check(avio_open(&io, "file:" + path, AVIO_FLAG_WRITE), "avio_open", source: path)
        avio_write(io, bytes, Int32(count))
        avio_flush(io)
        // avio_write reports nothing; a failed write leaves its code in `error`.
        let writeError = io?.pointee.error ?? 0
        let closed = avio_closep(&io)
        try check(writeError, "avio_write", source: path)
        try check(closed, "avio_closep", source: path)
    }
}

fileprivate extension FFmpegError {
    /// The same failure, reported against `source`.
    func at(_ source: String) -> FFmpegError {
        FFmpegError(code: code, call: call, message: message, source: source)
    }
}
