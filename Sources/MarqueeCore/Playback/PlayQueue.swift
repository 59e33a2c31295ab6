/// What happens when an item has played to its end (AVPlayer.ActionAtItemEnd).
public enum ActionAtItemEnd: String, Sendable, Codable, CaseIterable {
    /// Move on to the next item in the queue (the queue player's default).
    case advance
    /// Stop at the end of the item, its last frame on screen.
    case pause
    /// Keep the clock running with the last frame on screen.
    case none
}

/// Marquee's loop modes. On top of AVPlayer: `.item` reseeks to zero at each
/// end, `.playlist` starts the queue over after its last item.
public enum LoopMode: String, Sendable, Codable, CaseIterable {
    case none, item, playlist
}

/// The ordered items of a queue and the rule for what plays after what.
/// A value type: the player keeps one under its lock and asks it questions.
public struct PlayQueue<Item: AnyObject>: Sendable where Item: Sendable {
    public private(set) var items: [Item]
    /// Items that already played, kept for `.playlist` looping and `prev`.
    public private(set) var played: [Item] = []

    /// - Parameter played: items that count as played before `items` (a looping queue comes back to them).
    public init(items: [Item], played: [Item] = []) {
        self.items = items
        self.played = played
    }

    public var current: Item? { items.first }

    /// The current item ended and `next` takes its place.
    public mutating func advance(loop: LoopMode) {
        guard !items.isEmpty else { return }
        if loop == .item { return }
        let finished = items.removeFirst()
        played.append(finished)
        if loop == .playlist, items.isEmpty {
            items = played
            played = []
        }
    }

    /// Goes back one item (`prev`); false when nothing has played before.
    public mutating func goBack() -> Bool {
        guard let previous = played.popLast() else { return false }
        items.insert(previous, at: 0)
        return true
    }

    public func canInsert(_ item: Item, after: Item?) -> Bool {
        guard !items.contains(where: { $0 === item }) else { return false }
        guard let after else { return true }
        return items.contains { $0 === after }
    }

    /// Inserts after `after`, or at the end when `after` is nil (AVQueuePlayer).
    @discardableResult
    public mutating func insert(_ item: Item, after: Item?) -> Bool {
        guard canInsert(item, after: after) else { return false }
        if let after, let index = items.firstIndex(where: { $0 === after }) {
            items.insert(item, at: index + 1)
        } else {
            items.append(item)
        }
        return true
    }

    public mutating func remove(_ item: Item) {
        items.removeAll { $0 === item }
        played.removeAll { $0 === item }
    }

    public mutating func removeAll() {
        items.removeAll()
        played.removeAll()
    }

    public mutating func replaceCurrent(with item: Item?) {
        if !items.isEmpty { items.removeFirst() }
        if let item { items.insert(item, at: 0) }
    }

    /// Jumps to the item at `index` of `played + items` (`goto N`).
    public mutating func jump(to index: Int) -> Bool {
        let all = played + items
        guard all.indices.contains(index) else { return false }
        played = Array(all[..<index])
        items = Array(all[index...])
        return true
    }
}
