/// Moving around the playlist (the `prev`, `goto N` and `next` controls)
/// and replacing what comes next (a reloaded configuration).
///
/// The playlist is the queue's played items followed by its remaining
/// items: that order stays the order the items were given in as playback
/// advances, so a position in it is stable.
extension QueuePlayer {
    /// Every item in playlist order (played ones included), and the
    /// position of the current one; nil position when nothing is current
    /// (playback finished).
    public var playlist: (items: [PlayerItem], position: Int?) {
        engine.state.withLock { state in
            let all = state.queue.played + state.queue.items
            return (all, state.queue.current == nil ? nil : state.queue.played.count)
        }
    }

    /// Plays the playlist item at `position` (0-based, see `playlist`) from
    /// its start, keeping the play/pause state.
    /// - Returns: false when there is no such item (nothing changes).
    @discardableResult
    public func playItem(at position: Int) -> Bool {
        if case .refused = engine.send(.playItem(at: position)) { return false }
        return true
    }

    /// Goes back to the item played before the current one, from its start.
    /// - Returns: false when nothing played before (nothing changes).
    @discardableResult
    public func goBackToPreviousItem() -> Bool {
        if case .refused = engine.send(.goBack) { return false }
        return true
    }

    /// Keeps the current item playing and makes `items` what follows it,
    /// dropping everything else (played items too, so a looping playlist
    /// starts over with the new list). Takes effect at the current item's
    /// end, like `insert(_:after:)`; if the player has already looked ahead
    /// into the old next item (its last second or so), that item still plays.
    public func replaceUpcomingItems(with items: [PlayerItem]) {
        engine.send(.replaceUpcomingItems(items))
    }

    /// Keeps the current item playing and puts it between `played` (what
    /// counts as played before it, which a looping playlist comes back to
    /// after `upcoming`) and `upcoming` (what follows it), so its place in
    /// a changed playlist is kept (a watched folder's new contents). Takes
    /// effect at the current item's end, like `replaceUpcomingItems(with:)`.
    /// With no current item (the queue was empty, or playback finished),
    /// `upcoming` is the queue, and its first item starts now if the player
    /// is playing.
    public func replacePlaylist(played: [PlayerItem], upcoming: [PlayerItem]) {
        engine.send(.replacePlaylist(played: played, upcoming: upcoming))
    }

    /// Drops the whole queue, the current item too, and plays `items` from
    /// the first one now (keeping the play/pause state): a schedule's
    /// boundary, cut at once. Nothing of the old queue comes back when a
    /// looping playlist wraps.
    public func replaceQueue(with items: [PlayerItem]) {
        engine.send(.replaceQueue(items))
    }
}
