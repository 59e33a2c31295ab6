/// A first-in first-out list whose removal from the front costs O(1): the
/// taken slot is cleared at once, so a frame or packet's memory goes when it
/// is taken, and the array drops its taken front only once that is more than
/// half of it. The stages' queues, the read-ahead and the source's held
/// packets keep their elements in one.
struct FIFO<Element> {
    private var slots: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == slots.count }
    var count: Int { slots.count - head }
    var first: Element? { isEmpty ? nil : slots[head] }

    /// The elements, oldest first.
    var elements: some BidirectionalCollection<Element> { slots[head...].lazy.map { $0! } }

    mutating func append(_ element: Element) {
        slots.append(element)
    }

    mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = slots[head]
        slots[head] = nil
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }

    mutating func removeAll() {
        slots.removeAll()
        head = 0
    }

    /// Keeps the elements `isIncluded` accepts, in order.
    mutating func filter(_ isIncluded: (Element) -> Bool) {
        slots = slots[head...].filter { isIncluded($0!) }
        head = 0
    }
}
