/// A player for a sequence of items, like AVQueuePlayer. Items leave the
/// queue as they finish (unless the loop mode is `.playlist`, which starts
/// it over).
public final class QueuePlayer: Player, @unchecked Sendable {
    // @unchecked: adds no stored state to Player.

    public var items: [PlayerItem] { engine.state.withLock { $0.queue.items } }

    /// Ends the current item and plays the next one.
    public func advanceToNextItem() { engine.send(.advanceToNextItem) }

    public func canInsert(_ item: PlayerItem, after: PlayerItem?) -> Bool {
        engine.state.withLock { $0.queue.canInsert(item, after: after) }
    }

    /// Inserts `item` after `after` (at the end when nil). Takes effect when
    /// the player next looks ahead at an item end.
    public func insert(_ item: PlayerItem, after: PlayerItem?) { engine.send(.insert(item, after: after)) }

    public func remove(_ item: PlayerItem) { engine.send(.remove(item)) }

    public func removeAllItems() { engine.send(.removeAllItems) }
}
