/// A player for a sequence of items, like AVQueuePlayer. Items leave the
/// queue as they finish (unless the loop mode is `.playlist`, which starts
/// it over).
public final class QueuePlayer: Player, @unchecked Sendable {
    // @unchecked: adds no stored state to Player.

    public var items: [PlayerItem] { engine.state.withLock { $0.queue.items } }

    /// Ends the current item and plays the next one.
    public func advanceToNextItem() {
        let next = engine.state.withLock { state -> PlayerItem? in
            state.queue.advance(loop: state.loop == .playlist ? .playlist : .none)
            return state.queue.current
        }
        _ = engine.restart(item: next, at: .zero, exact: false)
        engine.post(.currentItemChanged(next))
    }

    public func canInsert(_ item: PlayerItem, after: PlayerItem?) -> Bool {
        engine.state.withLock { $0.queue.canInsert(item, after: after) }
    }

    /// Inserts `item` after `after` (at the end when nil). Takes effect when
    /// the player next looks ahead at an item end.
    public func insert(_ item: PlayerItem, after: PlayerItem?) {
        engine.state.withLock { _ = $0.queue.insert(item, after: after) }
    }

    public func remove(_ item: PlayerItem) {
        let wasCurrent = engine.state.withLock { state -> Bool in
            let wasCurrent = state.queue.current === item
            state.queue.remove(item)
            return wasCurrent
        }
        if wasCurrent {
            let next = currentItem
            _ = engine.restart(item: next, at: .zero, exact: false)
            engine.post(.currentItemChanged(next))
        }
    }

    public func removeAllItems() {
        engine.state.withLock { $0.queue.removeAll() }
        _ = engine.restart(item: nil, at: .zero, exact: false)
        engine.post(.currentItemChanged(nil))
    }
}
