/// When the presenter shows a frame, from the master clock (mpv's and
/// ffplay's rules, reduced to what a frame-at-a-time presenter needs).
public enum FrameTiming {
    /// A frame later than this many refresh intervals (or frame durations) is
    /// dropped instead of shown, so video catches up with audio rather than
    /// trailing it.
    public static let lateFrameThreshold = 1.0
    /// Never wait longer than this on one reading of a sound device's
    /// clock: it drifts from the host's (0.5 % is 5 ms a second), so the
    /// presenter reads it again before the frame is due.
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
    ///   - waitLimit: the longest wait to return (`maximumWait` for a device's clock).
    public static func decide(pts: Double, duration: Double, clock: Double, rate: Double,
                              refreshInterval: Double?, isLastQueued: Bool, waitLimit: Double = maximumWait) -> Decision {
        let lead = (pts - clock) / rate
        if lead >= 0 { return .present(inSeconds: min(lead, waitLimit)) }
        // Handed over now, the frame is seen at the next vblank, up to a
        // refresh later: judge its lateness there, or on a display whose
        // refresh equals the frame rate video trails by two frames before a drop.
        let lateness = -lead + (refreshInterval ?? 0)
        let frameInterval = max(duration / rate, refreshInterval ?? 0)
        if lateness > frameInterval * lateFrameThreshold, !isLastQueued { return .drop }
        return .present(inSeconds: 0)
    }
}
