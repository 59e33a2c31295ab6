import CFFmpeg
import MarqueeCore

/// Owns an opened AVFormatContext: the input (file or URL) and its streams.
/// Not thread-safe: one thread reads it at a time (the prober or the demux
/// thread), which is how libavformat wants it.
final class FormatContext {
    let source: String
    let pointer: UnsafeMutablePointer<AVFormatContext>
    let deadline: IODeadline

    /// Opens `source` and reads enough to know its streams.
    /// - Parameter timeout: seconds allowed for opening and probing; a source
    ///   that takes longer fails with an interrupted error instead of hanging.
    init(source: String, timeout: Double? = 10) throws(FFmpegError) {
        self.source = source
        deadline = IODeadline()
        guard var context = avformat_alloc_context() else {
            throw .outOfMemory("avformat_alloc_context", source: source)
        }
        context.pointee.interrupt_callback = deadline.callback
        deadline.arm(seconds: timeout)

        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        // Network sources: give up on a dead server rather than wait forever (microseconds).
        av_dict_set(&options, "rw_timeout", "\(Int((timeout ?? 30) * 1_000_000))", 0)
        av_dict_set(&options, "reconnect", "1", 0)

        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // On failure avformat_open_input frees the context and sets it to NULL.
        try check(avformat_open_input(&opened, source, nil, &options), "avformat_open_input", source: source)
        context = opened!
        pointer = context
        do throws(FFmpegError) {
            try check(avformat_find_stream_info(context, nil), "avformat_find_stream_info", source: source)
        } catch {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&doomed)
            throw error
        }
        deadline.arm(seconds: nil)
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

    var startTime: MediaTime {
        let value = pointer.pointee.start_time
        guard value != noTimestamp else { return .zero }
        return MediaTime(value: value, timescale: AV_TIME_BASE)
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
