import CFFmpeg
import CMarqueeShims
import MarqueeCore

/// What an rtsp:// source needs besides what every network source gets.
extension FormatContext {
    /// Seconds an RTSP server may send nothing, on its connection or on the
    /// RTP and RTCP ports, before a read fails (the RTSP demuxer's `timeout`,
    /// microseconds, in FFmpeg 5; FFmpeg 4 called it `stimeout` and took
    /// `timeout` for a listening server). A server that quits closes its
    /// connection and is noticed at once; one that hangs, or a network that
    /// goes, sends nothing, and over UDP that is all a client sees. A live
    /// stream silent this long is gone: playing, it sends packets many times
    /// a second.
    static let rtspSilence = 3.0

    static func isRTSP(_ source: String) -> Bool {
        let lowered = source.lowercased()
        return lowered.hasPrefix("rtsp://") || lowered.hasPrefix("rtsps://")
    }

    /// libavformat's options for an RTSP source read over `transport`.
    static func rtspOptions(_ transport: RTSPTransport) -> [(String, String)] {
        [("rtsp_transport", transport.rawValue), ("timeout", "\(Int(rtspSilence * 1_000_000))")]
    }

    /// An RTSP open that failed because the server offers no RTP over the
    /// transport asked for, in those words: libavformat says "Protocol not
    /// supported" (its word for a SETUP refused for every transport it was
    /// allowed to try), which sends a reader to look at the URL. Nil for
    /// any other outcome.
    static func refusedTransport(_ code: Int32, source: String, asked: RTSPTransport) -> FFmpegError? {
        guard code == marquee_averror(EPROTONOSUPPORT), isRTSP(source) else { return nil }
        let other: RTSPTransport = asked == .tcp ? .udp : .tcp
        let message = "the server does not send RTP over \(asked.rawValue.uppercased())"
            + " (rtsp_transport = \"\(other.rawValue)\" asks for \(other.rawValue.uppercased()))"
        return FFmpegError(code: code, call: "avformat_open_input", message: message, source: source)
    }
}
