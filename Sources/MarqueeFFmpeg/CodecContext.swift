import CFFmpeg
import CMarqueeShims
import MarqueeCore

/// Owns an opened AVCodecContext and runs libavcodec's send/receive loop.
final class CodecContext {
    private(set) var pointer: UnsafeMutablePointer<AVCodecContext>
    let source: String
    let timeBase: AVRational
    private let frame: UnsafeMutablePointer<AVFrame>

    /// - Parameters:
    ///   - threads: decoder threads, and whether they decode frames of their own.
    ///   - hardware: a VA-API device to decode on; frames then come out as
    ///     VA surfaces (AV_PIX_FMT_VAAPI), unless libavcodec's hwaccel set-up
    ///     fails, in which case they come out in software.
    ///   - lowres: decode at 1/2^lowres of the size, where the decoder can
    ///     (JPEG); clamped to what it can.
    convenience init(stream: UnsafeMutablePointer<AVStream>, source: String, threads: DecoderThreads,
                     hardware: HardwareDeviceContext? = nil, lowres: Int = 0) throws(FFmpegError) {
        try self.init(parameters: stream.pointee.codecpar, timeBase: stream.pointee.time_base, source: source, threads: threads,
                      hardware: hardware, lowres: lowres)
    }

    /// Opened from `parameters` (a stream's, or `CodecParameters`) for packets in `timeBase`.
    init(parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational, source: String, threads: DecoderThreads,
         hardware: HardwareDeviceContext? = nil, lowres: Int = 0) throws(FFmpegError) {
        self.source = source
        self.timeBase = timeBase
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw FFmpegError(code: marquee_averror_decoder_not_found(), call: "avcodec_find_decoder",
                              message: "no decoder for \(String(cString: avcodec_get_name(parameters.pointee.codec_id)))",
                              source: source)
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw .outOfMemory("avcodec_alloc_context3", source: source)
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        guard let frame = av_frame_alloc() else {
            avcodec_free_context(&owned)
            throw .outOfMemory("av_frame_alloc", source: source)
        }
        do throws(FFmpegError) {
            try check(avcodec_parameters_to_context(context, parameters), "avcodec_parameters_to_context", source: source)
            context.pointee.pkt_timebase = timeBase
            context.pointee.thread_count = Int32(threads.count)
            context.pointee.thread_type = threads.threadType
            context.pointee.lowres = Int32(min(max(lowres, 0), Int(codec.pointee.max_lowres)))
            if let hardware { try Self.useHardware(hardware, in: context, source: source) }
            try check(avcodec_open2(context, codec, nil), "avcodec_open2", source: source)
        } catch {
            var doomedFrame: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&doomedFrame)
            avcodec_free_context(&owned)
            throw error
        }
        pointer = context
        self.frame = frame
    }

    /// The GPU does the work: one thread feeds it. Surfaces stay referenced
    /// while they wait in the pipeline's frame queue (6) and on the display
    /// (current, last, old), so the pool needs that many beyond the codec's own.
    static let extraSurfaces: Int32 = 9

    private static func useHardware(_ device: HardwareDeviceContext, in context: UnsafeMutablePointer<AVCodecContext>,
                                    source: String) throws(FFmpegError) {
        guard let reference = av_buffer_ref(device.reference) else { throw .outOfMemory("av_buffer_ref", source: source) }
        // avcodec_free_context drops this reference.
        context.pointee.hw_device_ctx = reference
        context.pointee.get_format = preferVAAPI
        context.pointee.thread_count = 1
        context.pointee.extra_hw_frames = extraSurfaces
    }

    deinit {
        var doomedFrame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&doomedFrame)
        var doomed: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&doomed)
    }

    var codecName: String { String(cString: pointer.pointee.codec.pointee.name) }

    /// Feeds one packet (nil starts draining) and hands every frame that comes
    /// out to `body`, which must copy or reference the frame before returning.
    func decode(_ packet: Packet?, _ body: (UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> Void) throws(FFmpegError) {
        while true {
            let sent = avcodec_send_packet(pointer, packet?.pointer)
            if sent == marquee_averror_eagain() {
                // The decoder's output is full: take frames out, then retry the same packet.
                try receiveAll(body)
                continue
            }
            if sent == marquee_averror_eof() { return }
            try check(sent, "avcodec_send_packet", source: source, kind: .decoding)
            break
        }
        try receiveAll(body)
    }

    private func receiveAll(_ body: (UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> Void) throws(FFmpegError) {
        while true {
            let received = avcodec_receive_frame(pointer, frame)
            if received == marquee_averror_eagain() || received == marquee_averror_eof() { return }
            try check(received, "avcodec_receive_frame", source: source, kind: .decoding)
            defer { av_frame_unref(frame) }
            try body(frame)
        }
    }

    /// Drops everything buffered inside the decoder (after a seek, or for
    /// the next pass). libdav1d is opened afresh instead: Debian 12's
    /// libdav1d 1.0 with its frame threads deadlocks now and then in
    /// `dav1d_send_data` after a flush on damaged AV1 (found by the
    /// damaged-file fuzz: the source thread and every worker waiting for
    /// ever, so that not even SIGTERM ended the process). A context that
    /// cannot be made again is flushed as before.
    func flush() {
        guard codecName == "libdav1d", let fresh = reopened() else {
            avcodec_flush_buffers(pointer)
            return
        }
        var doomed: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&doomed)
        pointer = fresh
    }

    /// A context opened like this one, from its own parameters; nil when
    /// any call fails.
    private func reopened() -> UnsafeMutablePointer<AVCodecContext>? {
        guard let codec = pointer.pointee.codec, let parameters = avcodec_parameters_alloc() else { return nil }
        defer {
            var doomed: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&doomed)
        }
        guard avcodec_parameters_from_context(parameters, pointer) >= 0, let context = avcodec_alloc_context3(codec) else { return nil }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        context.pointee.pkt_timebase = pointer.pointee.pkt_timebase
        context.pointee.thread_count = pointer.pointee.thread_count
        context.pointee.thread_type = pointer.pointee.thread_type
        guard avcodec_parameters_to_context(context, parameters) >= 0, avcodec_open2(context, codec, nil) >= 0 else {
            avcodec_free_context(&owned)
            return nil
        }
        return context
    }

    /// The presentation time of a decoded frame, libav's best guess when the
    /// container left gaps.
    func presentationTime(_ frame: UnsafeMutablePointer<AVFrame>) -> MediaTime {
        MediaTime(libav: frame.pointee.best_effort_timestamp, timeBase: timeBase)
    }
}

/// libavcodec's get_format callback for a hardware codec context: VA-API
/// surfaces when they are offered (the hwaccel supports the stream), else the
/// first software format. libavcodec offers the list again without VA-API when
/// the hwaccel's own set-up fails; the decoder notices software frames and
/// gives up on the hardware.
private let preferVAAPI: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVPixelFormat>?) -> AVPixelFormat = { _, formats in
    guard var format = formats else { return AV_PIX_FMT_NONE }
    var software = AV_PIX_FMT_NONE
    while format.pointee != AV_PIX_FMT_NONE {
        if format.pointee == AV_PIX_FMT_VAAPI { return AV_PIX_FMT_VAAPI }
        let isHardware = av_pix_fmt_desc_get(format.pointee).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) != 0 } ?? true
        if software == AV_PIX_FMT_NONE, !isHardware { software = format.pointee }
        format += 1
    }
    return software
}
