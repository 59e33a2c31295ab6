/// How network sources are opened (the network keys of `[playback]`).
public struct NetworkOptions: Sendable, Equatable {
    /// Seconds behind its newest segment a live HLS stream starts (and
    /// restarts after an outage): less is closer to live, more rides out
    /// a slow segment. At least one segment.
    public var liveLatency: Double
    /// Seconds of a network item read ahead of its decoders where the item
    /// does not set its own (`preferredForwardBufferDuration` 0): a stall
    /// that waits resumes once this much is buffered.
    public var forwardBuffer: Double
    /// Which variant of an HLS stream plays where the item does not say
    /// (its `preferredPeakBitRate` and `preferredMaximumResolution` unset).
    public var variant: VariantPreference
    /// How an rtsp:// source's packets come: interleaved on the RTSP
    /// connection, or on UDP ports of their own.
    public var rtspTransport: RTSPTransport

    public init(liveLatency: Double = 6, forwardBuffer: Double = 4, variant: VariantPreference = VariantPreference(),
                rtspTransport: RTSPTransport = .tcp) {
        self.liveLatency = liveLatency
        self.forwardBuffer = forwardBuffer
        self.variant = variant
        self.rtspTransport = rtspTransport
    }
}
