import CFFmpeg
import CMarqueeShims

/// A small text resource (an HLS playlist) read whole through libavformat's
/// own protocols, so http, https and files behave as they do for playback.
enum URLText {
    /// The text at `url`, at most `limit` bytes, or an error naming the
    /// call. Blocking I/O gives up after `timeout` seconds.
    static func read(_ url: String, timeout: Double, limit: Int = 1 << 20) throws(FFmpegError) -> String {
        let deadline = IODeadline()
        deadline.arm(seconds: timeout)
        var interrupt = deadline.callback
        var context: UnsafeMutablePointer<AVIOContext>?
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "rw_timeout", "\(Int(timeout * 1_000_000))", 0)
        try check(avio_open2(&context, url, AVIO_FLAG_READ, &interrupt, &options), "avio_open2", source: url)
        defer { avio_closep(&context) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBufferPointer { avio_read(context, $0.baseAddress, Int32($0.count)) }
            if count == marquee_averror_eof() || count == 0 { break }
            try check(count, "avio_read", source: url)
            bytes += chunk.prefix(Int(count))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
