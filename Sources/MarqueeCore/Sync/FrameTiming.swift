/// When the presenter shows a frame, from the master clock (mpv's and
/// ffplay's rules, reduced to what a frame-at-a-time presenter needs).
public enum FrameTiming {
    /// A frame later than this many refresh intervals (or frame durations) is
    /// dropped instead of shown, so video catches up with audio rather than
    /// trailing it.
    public static let lateFrameThreshold = 1.0
    /// Never wait longer than this for one frame: a clock jump (a bad
    /// timestamp, audio stalling) must not freeze the picture.
    public static let maximumWait = 1.0

    public enum Decision: Equatable, Sendable {
        /// Show the frame at this many seconds from now (0 = now).
        case present(inSeconds: Double)
        /// The frame's time has passed: skip it.
        case drop
    }

    /// - Parameters:
    ///   - pts: the frame's timeline time in seconds.
    ///   - duration: how long it is meant to stay up, in timeline seconds.
    ///   - clock: the master clock's position now, in timeline seconds.
    ///   - rate: playback rate (timeline seconds per host second).
    ///   - refreshInterval: the display's refresh interval in seconds, if any.
    ///   - isLastQueued: true when no later frame is waiting; a frame that is
    ///     the newest available is never dropped (it may be all we get).
    public static func decide(pts: Double, duration: Double, clock: Double, rate: Double,
                              refreshInterval: Double?, isLastQueued: Bool) -> Decision {
        let lead = (pts - clock) / rate
        if lead >= 0 { return .present(inSeconds: min(lead, maximumWait)) }
        // Handed over now, the frame is seen at the next vblank, up to a
        // refresh later: judge its lateness there, or on a display whose
        // refresh equals the frame rate video trails by two frames before a drop.
        let lateness = -lead + (refreshInterval ?? 0)
        let frameInterval = max(duration / rate, refreshInterval ?? 0)
        if lateness > frameInterval * lateFrameThreshold, !isLastQueued { return .drop }
        return .present(inSeconds: 0)
    }
}
