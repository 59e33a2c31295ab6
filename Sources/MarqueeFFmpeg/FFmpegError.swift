import CFFmpeg
import CMarqueeShims

/// A failed libav call: which call, libav's code and message, and the input it
/// was working on, so one line tells the user what went wrong where.
public struct FFmpegError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failing means to whoever handles it, so nobody compares call names.
    public enum Kind: Sendable, Equatable {
        /// Any call: opening, reading, setting up.
        case call
        /// The decoder refused a packet or failed on a frame: damaged data, or a
        /// decoder that broke; the next packet may decode.
        case decoding
        /// libavcodec could not set up hardware decoding for the stream; no retry helps.
        case hardwareRefused
    }

    public let kind: Kind
    /// libav's return code (an AVERROR value), or 0 when the failure was not a code
    /// (a NULL allocation, a missing decoder).
    public let code: Int32
    /// The C function that failed, e.g. "avformat_open_input".
    public let call: String
    public let message: String
    /// The file or URL being read, when known.
    public let source: String?

    public init(code: Int32, call: String, message: String? = nil, source: String? = nil, kind: Kind = .call) {
        self.kind = kind
        self.code = code
        self.call = call
        self.message = message ?? FFmpegError.describe(code)
        self.source = source
    }

    public var description: String {
        let location = source.map { "\($0): " } ?? ""
        return "\(location)\(call): \(message)"
    }

    public var isEndOfFile: Bool { code == marquee_averror_eof() }
    public var isTryAgain: Bool { code == marquee_averror_eagain() }
    /// The interrupt callback stopped the call (deadline passed or cancelled).
    public var isInterrupted: Bool { code == marquee_averror_exit() }

    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        marquee_av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func outOfMemory(_ call: String, source: String? = nil) -> FFmpegError {
        FFmpegError(code: marquee_averror(ENOMEM), call: call, source: source)
    }
}

/// Turns a libav return code into a thrown `FFmpegError` naming the call.
@discardableResult
func check(_ code: Int32, _ call: String, source: String? = nil, kind: FFmpegError.Kind = .call) throws(FFmpegError) -> Int32 {
    if code < 0 { throw FFmpegError(code: code, call: call, source: source, kind: kind) }
    return code
}

let noTimestamp = marquee_av_nopts_value()
