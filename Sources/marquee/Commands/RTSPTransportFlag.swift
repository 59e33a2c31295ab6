import MarqueeConfig
import MarqueeCore

/// `--rtsp-transport`: how `play` (over `[playback] rtsp_transport`) and
/// `info` ask an RTSP server for its packets. Both need it: a server that
/// offers only the other transport refuses the stream (VLC's answers TCP
/// with 461 Unsupported transport).
enum RTSPTransportFlag {
    static let option = OptionSpec("--rtsp-transport", "tcp|udp", default: "tcp; [playback] rtsp_transport", .input,
                                   "rtsp:// packets on the RTSP connection, or on UDP ports of their own")

    static func parse(_ parser: inout ArgumentParser,
                      file: MarqueeConfiguration.Playback = MarqueeConfiguration().playback) throws -> RTSPTransport {
        let name = try parser.option("--rtsp-transport") ?? file.rtspTransport.rawValue
        guard let transport = RTSPTransport(rawValue: name) else {
            throw UsageError("--rtsp-transport must be tcp or udp, not '\(name)'")
        }
        return transport
    }
}
