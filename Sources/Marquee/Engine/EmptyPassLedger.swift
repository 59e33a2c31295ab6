/// Which items showed nothing on their latest passes. An item whose passes
/// end with no frame and no sound twice in a row (damaged past what
/// concealment gets over, or holding nothing decodable) is broken: without
/// this a looping show would spin through it, pass after empty pass. One
/// that shows frames and then fails is not: what it shows is worth showing.
///
/// Items are held weakly: a playlist replaced for months leaves no entries behind.
/// Not thread-safe: owned by the source stage.
struct EmptyPassLedger {
    /// Empty passes in a row that make an item broken.
    static let brokenAfter = 2

    private struct Entry {
        weak var item: PlayerItem?
        var emptyPasses: Int
    }

    private var entries: [Entry] = []

    /// Records how a pass of `item` went; true when that makes it broken.
    mutating func record(_ item: PlayerItem, showedNothing: Bool) -> Bool {
        entries.removeAll { $0.item == nil }
        let index = entries.firstIndex { $0.item === item }
        guard showedNothing else {
            if let index { entries.remove(at: index) }
            return false
        }
        let run = (index.map { entries[$0].emptyPasses } ?? 0) + 1
        if let index { entries[index].emptyPasses = run } else { entries.append(Entry(item: item, emptyPasses: run)) }
        return run == Self.brokenAfter
    }

    /// Whether `item` is broken: skipped from now on, as one that does not open is.
    func isBroken(_ item: PlayerItem) -> Bool {
        entries.contains { $0.item === item && $0.emptyPasses >= Self.brokenAfter }
    }
}
