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
        let item = engine.state.withLock { state -> PlayerItem? in
            guard state.queue.jump(to: position) else { return nil }
            return state.queue.current
        }
        guard let item else { return false }
        _ = engine.restart(item: item, at: .zero, exact: false)
        engine.post(.currentItemChanged(item))
        return true
    }

    /// Goes back to the item played before the current one, from its start.
    /// - Returns: false when nothing played before (nothing changes).
    @discardableResult
    public func goBackToPreviousItem() -> Bool {
        let item = engine.state.withLock { state -> PlayerItem? in
            guard state.queue.goBack() else { return nil }
            return state.queue.current
        }
        guard let item else { return false }
        _ = engine.restart(item: item, at: .zero, exact: false)
        engine.post(.currentItemChanged(item))
        return true
    }

    /// Keeps the current item playing and makes `items` what follows it,
    /// dropping everything else (played items too, so a looping playlist
    /// starts over with the new list). Takes effect at the current item's
    /// end, like `insert(_:after:)`; if the player has already looked ahead
    /// into the old next item (its last second or so), that item still plays.
    public func replaceUpcomingItems(with items: [PlayerItem]) {
        engine.state.withLock { state in
            let current = state.queue.current.map { [$0] } ?? []
            state.queue = PlayQueue(items: current + items.filter { item in !current.contains { $0 === item } })
        }
    }

    /// Starts a seek like `seek(to:toleranceBefore:toleranceAfter:)` but
    /// returns at once, so seeks from a command channel are issued in the
    /// order the commands came (separate `Task`s may start in any order).
    /// - Parameters:
    ///   - time: item time; clamped to the item.
    ///   - exact: present exactly the frame at `time` (else the keyframe before it).
    /// - Returns: a wait that ends when a frame of the seek is presented (true)
    ///   or a later seek supersedes it (false); nil when there is no current item.
    public func startSeek(to time: MediaTime, exact: Bool) -> (@Sendable () async -> Bool)? {
        guard let item = currentItem, time.isNumeric else { return nil }
        let duration = item.duration
        let clamped = max(.zero, duration.isNumeric ? min(time, duration) : time)
        let serial = engine.restart(item: item, at: clamped, exact: exact)
        engine.observers.timeJumped(to: clamped)
        engine.post(.timeJumped(item, to: clamped))
        let engine = engine
        return { await engine.waitForSeek(serial: serial) }
    }
}
