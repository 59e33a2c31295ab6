import CFFmpeg
import CMarqueeShims
import MarqueeCore

/// A whole text subtitle track as ASS: the header libavcodec's decoder
/// writes for it (styles, the script's resolution) and one dialogue line
/// per cue, timed in milliseconds of the item, as ffmpeg's `subtitles`
/// filter hands them to libass.
public struct SubtitleScript: Sendable {
    public struct Cue: Sendable, Equatable {
        /// Milliseconds of the item at which the cue shows.
        public var start: Int64
        public var duration: Int64
        /// The dialogue's fields after `Dialogue:` as libavcodec writes them
        /// (ReadOrder, Layer, Style, Name, MarginL, MarginR, MarginV, Effect, Text).
        public var line: String

        public var end: Int64 { start + duration }
    }

    public var header: String
    public var cues: [Cue]

    /// Whether a cue is up at `milliseconds`.
    public func hasCue(at milliseconds: Int64) -> Bool {
        cues.contains { $0.start <= milliseconds && milliseconds < $0.end }
    }
}

/// Reads a subtitle track whole, up front, on a demuxer of its own: in a
/// media file (mov_text in MP4, SubRip, WebVTT or ASS in Matroska) or a
/// sidecar file (`.srt`, `.vtt`, `.ass`). Text subtitles only; a bitmap
/// track (DVB, PGS) is refused by name.
public enum SubtitleReader {
    /// - Parameters:
    ///   - stream: the track's index; nil for the file's first subtitle track.
    ///   - alignedWithFile: cue times are made relative to the file's own
    ///     start (its first video or audio timestamp), as the item's are;
    ///     false for a sidecar, whose times are the video's.
    public static func read(source: String, stream: Int? = nil, alignedWithFile: Bool = true) throws(FFmpegError) -> SubtitleScript {
        let context = try FormatContext(source: source, timeout: 10)
        let media = MediaProber.describe(context)
        guard let index = stream ?? media.tracks.first(where: { $0.mediaType == .subtitle })?.id,
              index < context.streamCount, context.stream(index).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE else {
            throw FFmpegError(code: marquee_averror_stream_not_found(), call: "subtitles", message: "no subtitle track", source: source)
        }
        for other in 0..<context.streamCount where other != index { context.stream(other).pointee.discard = AVDISCARD_ALL }
        let decoder = try SubtitleDecoder(stream: context.stream(index), source: source)
        let origin = alignedWithFile && media.startTime.isNumeric ? Int64((media.startTime.seconds * 1000).rounded()) : 0
        var cues: [SubtitleScript.Cue] = []
        while true {
            guard let packet = av_packet_alloc() else { throw .outOfMemory("av_packet_alloc", source: source) }
            let owned = Packet(taking: packet, timeBase: context.stream(index).pointee.time_base)
            context.deadline.arm(seconds: 10)
            let code = av_read_frame(context.pointer, packet)
            context.deadline.arm(seconds: nil)
            if code < 0 {
                let error = FFmpegError(code: code, call: "av_read_frame", source: source)
                if error.isEndOfFile { break }
                throw error
            }
            guard owned.streamIndex == index else { continue }
            cues += try decoder.decode(packet).map { cue in
                var cue = cue
                cue.start -= origin
                return cue
            }
        }
        guard !cues.isEmpty else {
            throw FFmpegError(code: marquee_averror_invaliddata(), call: "subtitles", message: "no cue could be read", source: source)
        }
        return SubtitleScript(header: decoder.header, cues: Self.closed(cues))
    }

    /// A cue without an end (some formats leave it open) lasts until the next one starts.
    private static func closed(_ cues: [SubtitleScript.Cue]) -> [SubtitleScript.Cue] {
        var cues = cues.sorted { $0.start < $1.start }
        for index in cues.indices where cues[index].duration <= 0 || cues[index].duration >= Int64(UInt32.max) {
            let next = cues[(index + 1)...].first { $0.start > cues[index].start }?.start ?? cues[index].start + 5000
            cues[index].duration = next - cues[index].start
        }
        return cues
    }
}

/// A subtitle decoder (`avcodec_decode_subtitle2`), its context owned and freed.
private final class SubtitleDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let source: String
    private let codecName: String

    init(stream: UnsafeMutablePointer<AVStream>, source: String) throws(FFmpegError) {
        self.source = source
        let parameters = stream.pointee.codecpar!
        codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        if let descriptor = avcodec_descriptor_get(parameters.pointee.codec_id), descriptor.pointee.props & AV_CODEC_PROP_BITMAP_SUB != 0 {
            throw FFmpegError(code: marquee_averror_decoder_not_found(), call: "subtitles",
                              message: "bitmap subtitles (\(codecName)) are not shown, only text ones", source: source)
        }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw FFmpegError(code: marquee_averror_decoder_not_found(), call: "avcodec_find_decoder",
                              message: "no decoder for \(codecName)", source: source)
        }
        guard let context = avcodec_alloc_context3(codec) else { throw .outOfMemory("avcodec_alloc_context3", source: source) }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        do throws(FFmpegError) {
            try check(avcodec_parameters_to_context(context, parameters), "avcodec_parameters_to_context", source: source)
            context.pointee.pkt_timebase = stream.pointee.time_base
            try check(avcodec_open2(context, codec, nil), "avcodec_open2", source: source)
        } catch {
            avcodec_free_context(&owned)
            throw error
        }
        self.context = context
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// The ASS header the decoder made (text decoders all make one).
    var header: String {
        guard let bytes = context.pointee.subtitle_header, context.pointee.subtitle_header_size > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(context.pointee.subtitle_header_size)), as: UTF8.self)
    }

    func decode(_ packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) -> [SubtitleScript.Cue] {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        let code = avcodec_decode_subtitle2(context, &subtitle, &got, packet)
        // One cue that does not decode is left out, as a player does.
        guard code >= 0, got != 0 else { return [] }
        defer { avsubtitle_free(&subtitle) }
        let start = (subtitle.pts == marquee_av_nopts_value() ? 0 : subtitle.pts / 1000) + Int64(subtitle.start_display_time)
        let duration = Int64(subtitle.end_display_time) - Int64(subtitle.start_display_time)
        var cues: [SubtitleScript.Cue] = []
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[index], let ass = rect.pointee.ass else { continue }
            var line = String(cString: ass)
            if line.hasPrefix("Dialogue: ") { line.removeFirst("Dialogue: ".count) }
            cues.append(SubtitleScript.Cue(start: start, duration: duration, line: line))
        }
        return cues
    }
}
