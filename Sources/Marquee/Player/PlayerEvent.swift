/// What a player reports as it runs, in the order it happens. Delivered as a
/// bounded sequence (`player.events()`) and to handlers (`player.addEventHandler`).
public enum PlayerEvent: Sendable, CustomStringConvertible {
    /// The player became ready to play, or failed (`Player.status`).
    case statusChanged(Player.Status)
    /// An item opened (`.readyToPlay`) or could not be opened (`.failed`).
    case itemStatusChanged(PlayerItem, PlayerItem.Status)
    case currentItemChanged(PlayerItem?)
    /// Presentation reached the end of the item (each loop pass counts).
    case didPlayToEnd(PlayerItem)
    /// The item stopped before its end: unreadable data, too many decode errors.
    case failedToPlayToEnd(PlayerItem, any Error)
    /// The current time jumped (a seek, a loop to zero).
    case timeJumped(PlayerItem, to: MediaTime)
    /// The pipeline ran out of data while playing (network, slow decode).
    case playbackStalled(PlayerItem)
    /// A network item went away (it could not be opened, a read failed,
    /// or it ended early): `reason` is one line, and the player tries it
    /// again in `retryIn` seconds, then on its retry schedule, with the last
    /// frame up. Posted once an outage, not at each attempt.
    case sourceLost(PlayerItem, reason: String, retryIn: Double)
    /// The item is back after `seconds` and `attempts` tries; playback goes
    /// on where it was lost (a live stream at its live edge).
    case sourceRestored(PlayerItem, seconds: Double, attempts: Int)
    case rateChanged(Double)
    /// A negative rate asked of an item that cannot play backwards (why:
    /// `PlayerItem.reverseRefusal`): it plays forwards at that speed instead.
    case reverseRefused(PlayerItem, reason: String)
    /// The video output refused a frame (the display went away, a commit
    /// failed); the last good frame stays up and playback goes on.
    case videoOutputFailed(any Error)
    /// Sound on a wall schedule could not be resampled towards it (the error
    /// names the libswresample call): it plays at its device's own pace,
    /// and an offset that grows large is mended by moving it. Said once.
    case audioResamplingFailed(any Error)
    /// The item's video is decoded in software from here on: hardware
    /// decoding could not be set up (`atSetUp`: no device, no driver, a
    /// stream it does not decode), or failed mid-stream (then playback went
    /// on from the frame after the last one shown). `reason` is one line.
    case videoDecodingFellBack(PlayerItem, reason: String, atSetUp: Bool)
    /// The splash (`PlayerConfiguration.splash`: its picture, or the
    /// background colour) is on the display, before any item's frame.
    case splashShown
    /// The item's chosen captions are read and drawn from its next frame on.
    case captionsLoaded(PlayerItem, MediaSelectionOption)
    /// The item's chosen captions could not be read (a broken subtitle
    /// file, bitmap subtitles); the item plays without them.
    case captionsUnavailable(PlayerItem, any Error)
    /// The splash picture could not be read (missing, damaged, not a
    /// picture): the background colour is shown instead.
    case splashUnavailable(path: String, any Error)
    /// Nothing more to play: the last item ended (the player is paused on its last frame).
    case playbackFinished
    /// Whether time moves changed: `reason` is set while waiting to play.
    case timeControlStatusChanged(TimeControlStatus, reason: WaitingReason?)
    /// Only in a `PlayerEvents` sequence: this many events before this point
    /// were dropped because the consumer fell behind its buffer.
    case eventsDropped(Int)

    public var description: String {
        switch self {
        case .statusChanged(let status): "status \(status)"
        case .itemStatusChanged(let item, let status): "item \(item) \(status)"
        case .currentItemChanged(let item): "current item \(item.map(\.description) ?? "none")"
        case .didPlayToEnd(let item): "did play to end \(item)"
        case .failedToPlayToEnd(let item, let error): "failed to play to end \(item): \(error)"
        case .timeJumped(let item, let time): "time jumped \(item) to \(time.seconds) s"
        case .playbackStalled(let item): "playback stalled \(item)"
        case .sourceLost(let item, let reason, let retryIn): "source lost \(item): \(reason), retry in \(retryIn) s"
        case .sourceRestored(let item, let seconds, let attempts): "source back \(item) after \(seconds) s, \(attempts) attempt\(attempts == 1 ? "" : "s")"
        case .rateChanged(let rate): "rate \(rate)"
        case .reverseRefused(let item, let reason): "\(item) cannot play backwards: \(reason)"
        case .playbackFinished: "playback finished"
        case .splashShown: "splash shown"
        case .captionsLoaded(let item, let option): "captions of \(item): \(option)"
        case .captionsUnavailable(let item, let error): "captions of \(item) not shown: \(error)"
        case .splashUnavailable(let path, let error): "splash \(path) unavailable: \(error)"
        case .timeControlStatusChanged(let status, let reason): "time control \(status.rawValue)\(reason.map { " (\($0.rawValue))" } ?? "")"
        case .eventsDropped(let count): "\(count) events dropped"
        case .videoOutputFailed(let error): "video output failed: \(error)"
        case .audioResamplingFailed(let error): "audio not resampled to the wall clock: \(error)"
        case .videoDecodingFellBack(let item, let reason, _): "video decoding fell back \(item): \(reason)"
        }
    }
}
