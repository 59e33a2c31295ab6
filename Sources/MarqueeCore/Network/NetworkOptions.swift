/// How network sources are opened (the network keys of `[playback]`).
public struct NetworkOptions: Sendable, Equatable {
    /// Seconds behind its newest segment a live HLS stream starts (and
    /// restarts after an outage): less is closer to live, more rides out
    /// a slow segment. At least one segment.
    public var liveLatency: Double

    public init(liveLatency: Double = 6) {
        self.liveLatency = liveLatency
    }
}
