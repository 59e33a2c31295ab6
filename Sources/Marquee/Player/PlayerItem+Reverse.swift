/// Which rates and steps an item allows, as AVPlayerItem reports them.
/// Known once the item is open (`status` `.readyToPlay`); before that, and
/// for an item that failed, each is false.
extension PlayerItem {
    /// Why the item cannot be played backwards or stepped back; nil when it
    /// can. Reading backwards seeks once a GOP, which needs the whole item
    /// at hand and its length known.
    public var reverseRefusal: String? {
        if asset.isNetworkSource { return "a network source is read forwards only" }
        guard status == .readyToPlay, let media else { return "it is not open yet" }
        if media.isStillImage { return "a still picture has no frames to go back through" }
        guard let video = media.preferredTrack(.video), isTrackEnabled(video.id) else { return "it has no video to show backwards" }
        guard media.duration.isNumeric, media.duration > .zero else { return "its length is not known" }
        return nil
    }

    /// Rates below zero: -1 and any other.
    public var canPlayReverse: Bool { reverseRefusal == nil }
    /// Rates between -1 and 0.
    public var canPlaySlowReverse: Bool { canPlayReverse }
    /// Rates below -1.
    public var canPlayFastReverse: Bool { canPlayReverse }
    /// `Player.step(byCount:)` with a negative count.
    public var canStepBackward: Bool { canPlayReverse }

    /// `Player.step(byCount:)` with a positive count: an item with frames.
    public var canStepForward: Bool {
        guard status == .readyToPlay, let media, !media.isStillImage, let video = media.preferredTrack(.video) else { return false }
        return isTrackEnabled(video.id)
    }
}
