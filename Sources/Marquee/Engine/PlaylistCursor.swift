/// The one place that decides what plays after what: the loop mode, the
/// action at an item's end and the pass limit, read against the queue. The
/// source stage asks it at the end of every pass (it reads ahead of what is
/// seen and heard); presentation only follows what the source decided.
struct PlaylistCursor: Sendable {
    var loop = LoopMode.none
    var action = ActionAtItemEnd.advance
    /// With `.item` or `.playlist` looping: how many passes (of the item, of
    /// the whole queue) to play in all (nil = forever).
    var passLimit: Int? {
        didSet { playlistWraps = 0 }
    }
    /// Times the source has gone back to the start of the queue.
    private(set) var playlistWraps = 0

    /// The item that plays after pass `pass` of `item` ends, or nil when playback stops there.
    func successor(of item: PlayerItem, pass: Int, in queue: PlayQueue<PlayerItem>) -> PlayerItem? {
        if loop == .item {
            if let passLimit, pass + 1 >= passLimit { return nil }
            return item
        }
        let sequence = queue.items + (loop == .playlist ? queue.played : [])
        guard let index = sequence.firstIndex(where: { $0 === item }) else { return queue.current }
        if loop == .none, action != .advance { return nil }
        let next = index + 1
        if next < sequence.count, loop != .playlist { return sequence[next] }
        guard loop == .playlist, let candidate = next < sequence.count ? sequence[next] : sequence.first else { return nil }
        // `sequence` starts at the item presented now, not at the queue's
        // start: a wrap can fall anywhere in it.
        if let passLimit, Self.wraps(from: item, to: candidate, in: queue), playlistWraps + 1 >= passLimit { return nil }
        return candidate
    }

    /// The source moved on from `item` to `next`: a new pass of the queue if
    /// `next` comes first in the queue's order (counted for `passLimit`).
    mutating func step(from item: PlayerItem, to next: PlayerItem, in queue: PlayQueue<PlayerItem>) {
        if loop == .playlist, Self.wraps(from: item, to: next, in: queue) { playlistWraps += 1 }
    }

    /// Whether the queue moves past the last item when playback ends on it
    /// (AVQueuePlayer removes a finished item; a loop or a pause keeps it).
    var advancesAtEnd: Bool { action == .advance && loop == .none }

    /// `played + items` keeps the queue's order as items are presented and
    /// as a playlist wraps, while the source reads ahead of both.
    private static func wraps(from item: PlayerItem, to next: PlayerItem, in queue: PlayQueue<PlayerItem>) -> Bool {
        let order = queue.played + queue.items
        guard let from = order.firstIndex(where: { $0 === item }), let to = order.firstIndex(where: { $0 === next }) else { return false }
        return to <= from
    }
}
