import Foundation

/// A bounded FIFO between two pipeline threads. Bounded by a cost (frames,
/// seconds of audio) so memory stays flat whatever the input; a producer
/// blocks while it is full, a consumer while it is empty. `close()` wakes both
/// for shutdown.
///
/// `@unchecked Sendable`: all state is guarded by `condition`.
final class BlockingQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Popped slots are set to nil at once so a consumed frame's memory is
    /// released then, not when the array is next compacted.
    private var items: [(element: Element?, cost: Double)] = []
    private var head = 0
    private var totalCost = 0.0
    private var closed = false
    let capacity: Double

    /// - Parameter capacity: the most total cost held at once; a single item
    ///   larger than that is still accepted into an empty queue.
    init(capacity: Double) {
        self.capacity = capacity
    }

    /// Appends, waiting while full. Returns false if the queue was closed.
    @discardableResult
    /// - Parameter mayOverflow: when it returns true the push does not wait
    ///   for room (a consumer elsewhere is starving and only this producer can feed it).
    func push(_ element: Element, cost: Double = 1, while stillWanted: () -> Bool = { true },
              mayOverflow: () -> Bool = { false }) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed, unlockedCount > 0, totalCost + cost > capacity, stillWanted(), !mayOverflow() {
            condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        guard !closed, stillWanted() else { return false }
        items.append((element, cost))
        totalCost += cost
        condition.broadcast()
        return true
    }

    /// Removes the oldest element, waiting up to `timeout` seconds for one.
    func pop(timeout: Double) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !closed, unlockedCount == 0 {
            if !condition.wait(until: deadline) { break }
        }
        guard unlockedCount > 0 else { return nil }
        let (element, cost) = items[head]
        items[head].element = nil
        head += 1
        totalCost -= cost
        compactIfNeeded()
        condition.broadcast()
        return element
    }

    /// The oldest element without removing it.
    func peek() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return unlockedCount > 0 ? items[head].element : nil
    }

    /// Removes every element matching `predicate` (stale data after a seek).
    func removeAll(where predicate: (Element) -> Bool) {
        condition.lock()
        defer { condition.unlock() }
        let kept = items[head...].filter { $0.element.map { !predicate($0) } ?? false }
        items = Array(kept)
        head = 0
        totalCost = kept.reduce(0) { $0 + $1.cost }
        condition.broadcast()
    }

    private var unlockedCount: Int { items.count - head }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return unlockedCount
    }

    var isEmpty: Bool { count == 0 }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func compactIfNeeded() {
        if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
