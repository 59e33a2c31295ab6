/// Whether time is moving, as AVPlayer's `timeControlStatus` says it:
/// playback was asked for (`rate` above zero) but time may still stand
/// while the player waits for a frame; `reasonForWaitingToPlay` says why.
public enum TimeControlStatus: String, Sendable {
    case paused
    /// Play was asked for; nothing moves until the reason is gone.
    case waitingToPlayAtSpecifiedRate
    case playing
}

/// Why a player that was asked to play is not playing yet (AVPlayer's
/// `AVPlayer.WaitingReason`).
public enum WaitingReason: String, Sendable {
    /// The buffer is empty: after a start, a seek or an item change until
    /// its first frame is on screen, or after a stall (the source fell
    /// behind) until frames come again.
    case toMinimizeStalls
    /// The queue has no current item.
    case noItemToPlay
}

/// The pair the engine keeps and reports in one event, so a reason never
/// arrives apart from its status.
struct TimeControl: Equatable, Sendable {
    var status: TimeControlStatus
    var reason: WaitingReason?

    static let paused = TimeControl(status: .paused, reason: nil)
    static let playing = TimeControl(status: .playing, reason: nil)
    static func waiting(_ reason: WaitingReason) -> TimeControl {
        TimeControl(status: .waitingToPlayAtSpecifiedRate, reason: reason)
    }
}
