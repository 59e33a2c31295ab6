import Dispatch
import Synchronization

/// Fans player events out to async streams and handler closures, each on the
/// queue its owner chose. Events are delivered in the order they were posted.
final class EventHub: Sendable {
    private struct Subscriber: Sendable {
        let queue: DispatchQueue?
        let deliver: @Sendable (PlayerEvent) -> Void
    }

    private let subscribers = Mutex<[Int: Subscriber]>([:])
    private let nextID = Atomic<Int>(0)
    /// One serial queue keeps handler order equal to posting order.
    private let delivery = DispatchQueue(label: "marquee.events")

    func post(_ event: PlayerEvent) {
        let current = subscribers.withLock { Array($0.values) }
        for subscriber in current {
            (subscriber.queue ?? delivery).async { subscriber.deliver(event) }
        }
    }

    func subscribe(queue: DispatchQueue?, _ deliver: @escaping @Sendable (PlayerEvent) -> Void) -> Int {
        let id = nextID.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id] = Subscriber(queue: queue ?? delivery, deliver: deliver) }
        return id
    }

    func unsubscribe(_ id: Int) {
        _ = subscribers.withLock { $0.removeValue(forKey: id) }
    }

    func stream() -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream()
        let id = subscribe(queue: nil) { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }
}
