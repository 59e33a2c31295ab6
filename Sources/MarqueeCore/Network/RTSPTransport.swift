/// How an RTSP source's media reaches the player (`[playback]
/// rtsp_transport`, `--rtsp-transport`). The RTSP conversation itself is
/// always on TCP; this chooses where the RTP packets go.
public enum RTSPTransport: String, Sendable, CaseIterable {
    /// Interleaved on the RTSP connection: one TCP connection, through NAT
    /// and firewalls, nothing lost; what most cameras and servers offer.
    case tcp
    /// RTP and RTCP on UDP ports of their own: no head-of-line blocking,
    /// but a lost packet is a damaged picture, and some servers (VLC's)
    /// offer nothing else.
    case udp
}
