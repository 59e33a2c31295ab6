import CFFmpeg
import MarqueeCore

/// Owns an opened AVFormatContext: the input (file or URL) and its streams.
/// Not thread-safe: one thread reads it at a time (the prober or the demux
/// thread), which is how libavformat wants it.
final class FormatContext {
    let source: String
    let pointer: UnsafeMutablePointer<AVFormatContext>
    let deadline: IODeadline
    /// Whether `avformat_find_stream_info` has run: the codec profile, pixel
    /// and sample formats are known only after it.
    private(set) var hasStreamInfo = false
    private let timeout: Double?

    /// Opens `source` and reads enough to know its streams.
    /// - Parameters:
    ///   - timeout: seconds allowed for opening and probing; a source that
    ///     takes longer fails with an interrupted error instead of hanging.
    ///   - headerWillDo: take the streams as an MP4/MOV header describes
    ///     them (codec, size, rate, channels, timing) and leave
    ///     `avformat_find_stream_info`, which decodes the first frames of
    ///     every stream (100 ms for a 1080p H.264 keyframe), to
    ///     `readStreamInfo()`. Other containers, whose headers leave things
    ///     out, are probed as usual.
    ///   - network: how a network source is opened (a live HLS stream's
    ///     latency, an RTSP stream's transport).
    init(source: String, timeout: Double? = 10, headerWillDo: Bool = false,
         network: NetworkOptions = NetworkOptions()) throws(FFmpegError) {
        self.timeout = timeout
        self.source = source
        deadline = IODeadline()

        // The options come first: the HLS playlist read may fail, and nothing is allocated yet.
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        // Network sources: give up on a dead server rather than wait forever (microseconds).
        var settings = [("rw_timeout", "\(Int((timeout ?? 30) * 1_000_000))"), ("reconnect", "1")]
        if let index = try Self.liveStartIndex(source, timeout: timeout ?? 30, latency: network.liveLatency) {
            settings.append(("live_start_index", "\(index)"))
        }
        if Self.isRTSP(source) { settings += Self.rtspOptions(network.rtspTransport) }
        for (key, value) in settings {
            try check(av_dict_set(&options, key, value, 0), "av_dict_set", source: source)
        }

        guard var context = avformat_alloc_context() else {
            throw .outOfMemory("avformat_alloc_context", source: source)
        }
        context.pointee.interrupt_callback = deadline.callback
        deadline.arm(seconds: timeout)

        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // On failure avformat_open_input frees the context and sets it to NULL.
        let code = avformat_open_input(&opened, source, nil, &options)
        if let refused = Self.refusedTransport(code, source: source, asked: network.rtspTransport) { throw refused }
        try check(code, "avformat_open_input", source: source)
        context = opened!
        pointer = context
        // Every stored property is set from here on, so a throw runs deinit,
        // which closes the context: the one place it is closed.
        if !(headerWillDo && headerDescribesStreams) { try findStreamInfo() }
        deadline.arm(seconds: nil)
    }

    /// Where a live HLS stream starts, read from its playlist (the first
    /// variant's, for a multivariant one): libavformat counts in segments
    /// (three from the end by default), the player in seconds. Nil for
    /// anything else. A playlist that cannot be fetched fails the open
    /// here, so an attempt is one request.
    private static func liveStartIndex(_ source: String, timeout: Double, latency: Double) throws(FFmpegError) -> Int? {
        guard source.looksLikeHLS, source.contains("://") else { return nil }
        guard var playlist = HLSPlaylist(try URLText.read(source, timeout: timeout)) else { return nil }
        if case .multivariant(let variants) = playlist, let first = variants.first {
            guard let media = (try? URLText.read(resolve(first, against: source), timeout: timeout)).flatMap(HLSPlaylist.init)
            else { return nil }
            playlist = media
        }
        return playlist.liveStartIndex(latency: latency)
    }

    /// A playlist's URI relative to the playlist's own URL.
    private static func resolve(_ reference: String, against base: String) -> String {
        if reference.contains("://") { return reference }
        let path = base.split(separator: "?", maxSplits: 1).first.map(String.init) ?? base
        if reference.hasPrefix("/"), let scheme = path.firstRange(of: "://"),
           let hostEnd = path[scheme.upperBound...].firstIndex(of: "/") {
            return String(path[..<hostEnd]) + reference
        }
        guard let slash = path.lastIndex(of: "/") else { return reference }
        return String(path[...slash]) + reference
    }

    /// Runs `avformat_find_stream_info` after an open that left it out.
    func readStreamInfo() throws(FFmpegError) {
        deadline.arm(seconds: timeout)
        defer { deadline.arm(seconds: nil) }
        try findStreamInfo()
    }

    private func findStreamInfo() throws(FFmpegError) {
        try check(avformat_find_stream_info(pointer, nil), "avformat_find_stream_info", source: source)
        hasStreamInfo = true
    }

    /// An MP4/MOV header whose every audio and video stream states its codec,
    /// size or rate and channels, and where it starts (the sample tables
    /// give that); Matroska, MPEG-TS and raw streams are found out by reading.
    private var headerDescribesStreams: Bool {
        guard containerFormat.hasPrefix("mov,") else { return false }
        return (0..<streamCount).allSatisfy { index in
            let stream = self.stream(index).pointee
            let parameters = stream.codecpar.pointee
            switch parameters.codec_type {
            case AVMEDIA_TYPE_VIDEO:
                return parameters.codec_id != AV_CODEC_ID_NONE && parameters.width > 0 && parameters.height > 0
                    && stream.start_time != noTimestamp && stream.avg_frame_rate.den > 0
            case AVMEDIA_TYPE_AUDIO:
                return parameters.codec_id != AV_CODEC_ID_NONE && parameters.sample_rate > 0
                    && parameters.ch_layout.nb_channels > 0 && stream.start_time != noTimestamp
            default:
                return true
            }
        }
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&doomed)
    }

    var streamCount: Int { Int(pointer.pointee.nb_streams) }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        precondition(index >= 0 && index < streamCount, "stream index out of range")
        return pointer.pointee.streams[index]!
    }

    var containerFormat: String {
        pointer.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
    }

    /// The container's duration, or indefinite for live streams and unknown lengths.
    var duration: MediaTime {
        let value = pointer.pointee.duration
        guard value != noTimestamp, value > 0 else { return .indefinite }
        return MediaTime(value: value, timescale: AV_TIME_BASE)
    }

    /// Where the input starts: libavformat's figure, or without stream info
    /// (which computes it) the earliest start of a stream, as libavformat
    /// would compute it.
    var startTime: MediaTime {
        let value = pointer.pointee.start_time
        if value != noTimestamp { return MediaTime(value: value, timescale: AV_TIME_BASE) }
        let starts = (0..<streamCount).map { stream($0).pointee }
            .filter { [AVMEDIA_TYPE_VIDEO, AVMEDIA_TYPE_AUDIO].contains($0.codecpar.pointee.codec_type) && $0.start_time != noTimestamp }
            .map { MediaTime(libav: $0.start_time, timeBase: $0.time_base) }
        return starts.min() ?? .zero
    }

    var metadata: [String: String] { dictionary(pointer.pointee.metadata) }
}

/// Copies an AVDictionary into Swift.
func dictionary(_ dict: OpaquePointer?) -> [String: String] {
    var result: [String: String] = [:]
    var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
    while let next = av_dict_get(dict, "", entry, AV_DICT_IGNORE_SUFFIX) {
        result[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
        entry = next
    }
    return result
}

extension MediaTime {
    /// A libav timestamp in `timeBase`, or invalid for AV_NOPTS_VALUE.
    init(libav value: Int64, timeBase: AVRational) {
        if value == noTimestamp || timeBase.den == 0 {
            self = .invalid
        } else {
            self.init(value: value, timeBase: timeBase.num, timeBase.den)
        }
    }
}
