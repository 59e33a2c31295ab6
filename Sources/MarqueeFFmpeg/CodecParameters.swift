import CFFmpeg

/// A stream's codec parameters, copied when its item opens. Decoders opened
/// later (frame threads, the picture decoded ahead, software after
/// hardware) are opened from the copy: the stream's own may be rewritten by
/// av_read_frame meanwhile, on a network item's read-ahead thread.
final class CodecParameters {
    let pointer: UnsafeMutablePointer<AVCodecParameters>
    let timeBase: AVRational

    init(copying stream: UnsafeMutablePointer<AVStream>, source: String) throws(FFmpegError) {
        guard let parameters = avcodec_parameters_alloc() else { throw .outOfMemory("avcodec_parameters_alloc", source: source) }
        let code = avcodec_parameters_copy(parameters, stream.pointee.codecpar)
        if code < 0 {
            var doomed: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&doomed)
            throw FFmpegError(code: code, call: "avcodec_parameters_copy", source: source)
        }
        pointer = parameters
        timeBase = stream.pointee.time_base
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&doomed)
    }
}
