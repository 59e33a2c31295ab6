import FoundationEssentials

/// A bounded FIFO between two pipeline stages that never blocks: a push that
/// does not fit is refused and the producer waits on its signal, which the
/// next pop raises; a pop that finds nothing leaves the consumer waiting on
/// its signal, which the next push raises. Nobody else is woken, so a stage
/// waiting for a deadline is not disturbed by traffic it does not need. Bounded by count,
/// bytes and seconds at once, so a 4K stream holds as few frames as its
/// memory allows while a small one holds enough time to ride out jitter.
///
/// `@unchecked Sendable`: all state is guarded by `lock`.
final class StageQueue<Element>: @unchecked Sendable {
    struct Limits: Sendable {
        var count: Int
        var bytes: Int
        var seconds: Double
        /// The element popped last counts against the bytes and seconds
        /// until the consumer's next pop: the consumer holds it until then
        /// (the presenter's next frame, waiting for its vblank).
        var countsTaken = false
    }

    private struct Slot {
        let element: Element
        let bytes: Int
        let seconds: Double
    }

    private let lock = Condition()
    private var slots = FIFO<Slot>()
    private var bytes = 0
    private var seconds = 0.0
    /// The cost of the element the consumer holds (`Limits.countsTaken`).
    private var taken: (bytes: Int, seconds: Double) = (0, 0)
    /// A push was refused since the last pop: the producer waits for room.
    private var producerWaiting = false
    /// A pop found nothing since the last push: the consumer waits for an entry.
    private var consumerWaiting = false
    let limits: Limits
    private let consumer: WakeSignal
    private let producer: WakeSignal

    init(limits: Limits, consumer: WakeSignal, producer: WakeSignal) {
        self.limits = limits
        self.consumer = consumer
        self.producer = producer
    }

    /// Appends unless a limit would be passed. An empty queue takes any one
    /// element, and `overflow` takes it anyway (the consumer of another queue
    /// starves and only this producer can feed it). Returns false when refused.
    func push(_ element: Element, bytes cost: Int, seconds duration: Double, overflow: Bool = false) -> Bool {
        lock.lock()
        let fits = overflow || takes(bytes: cost, seconds: duration)
        var wake = false
        if fits {
            slots.append(Slot(element: element, bytes: cost, seconds: duration))
            bytes += cost
            seconds += duration
            wake = consumerWaiting
            consumerWaiting = false
        } else {
            producerWaiting = true
        }
        lock.unlock()
        if wake { consumer.raise() }
        return fits
    }

    /// Whether a push of this size would be taken now; when not, the
    /// producer is woken by the next pop as after a refused push. A producer
    /// asks before making an element that would otherwise wait in its hands.
    func hasRoom(bytes cost: Int, seconds duration: Double) -> Bool {
        lock.lock()
        let fits = takes(bytes: cost, seconds: duration)
        if !fits { producerWaiting = true }
        lock.unlock()
        return fits
    }

    /// Within every limit, or the queue is empty. Called with `lock` held.
    private func takes(bytes cost: Int, seconds duration: Double) -> Bool {
        slots.isEmpty || (slots.count < limits.count && bytes + cost <= limits.bytes && seconds + duration <= limits.seconds)
    }

    /// Removes the oldest element, if any. Emptying the queue also wakes the
    /// producer: a consumer about to starve may let it overflow another queue.
    func pop() -> Element? {
        lock.lock()
        bytes -= taken.bytes
        seconds -= taken.seconds
        taken = (0, 0)
        guard let slot = slots.popFirst() else {
            consumerWaiting = true
            lock.unlock()
            return nil
        }
        if limits.countsTaken {
            taken = (slot.bytes, slot.seconds)
        } else {
            bytes -= slot.bytes
            seconds -= slot.seconds
        }
        let wake = producerWaiting || slots.isEmpty
        producerWaiting = false
        lock.unlock()
        if wake { producer.raise() }
        return slot.element
    }

    /// Removes every element matching `predicate` (stale data after a seek).
    func removeAll(where predicate: (Element) -> Bool) {
        lock.lock()
        slots.filter { !predicate($0.element) }
        // What the consumer holds is stale too.
        taken = (0, 0)
        bytes = slots.elements.reduce(0) { $0 + $1.bytes }
        seconds = slots.elements.reduce(0) { $0 + $1.seconds }
        let wake = producerWaiting
        producerWaiting = false
        lock.unlock()
        if wake { producer.raise() }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return slots.count
    }

    var isEmpty: Bool { count == 0 }

    /// The oldest element, left in place.
    var first: Element? {
        lock.lock()
        defer { lock.unlock() }
        return slots.first?.element
    }
}
