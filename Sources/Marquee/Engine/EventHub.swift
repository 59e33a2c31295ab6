import Dispatch
import Synchronization

/// Fans player events out to handler closures, each on the queue its owner
/// chose, and to `PlayerEvents` buffers, appended to as they are posted.
/// Events are delivered in the order they were posted.
final class EventHub: Sendable {
    private struct Subscriber: Sendable {
        let queue: DispatchQueue?
        let deliver: @Sendable (PlayerEvent) -> Void
    }

    private struct Subscribers {
        var handlers: [Int: Subscriber] = [:]
        /// Weak: a buffer lives as long as its sequence, and leaves on release.
        var buffers: [Int: WeakBuffer] = [:]
    }

    private struct WeakBuffer {
        weak var buffer: EventBuffer?
    }

    private let subscribers = Mutex(Subscribers())
    private let nextID = Atomic<Int>(0)
    /// One serial queue keeps handler order equal to posting order.
    private let delivery = DispatchQueue(label: "marquee.events")

    func post(_ event: PlayerEvent) {
        let (handlers, buffers) = subscribers.withLock { ($0.handlers.values, $0.buffers.values.compactMap(\.buffer)) }
        for handler in handlers {
            (handler.queue ?? delivery).async { handler.deliver(event) }
        }
        buffers.forEach { $0.append(event) }
    }

    func subscribe(queue: DispatchQueue?, _ deliver: @escaping @Sendable (PlayerEvent) -> Void) -> Int {
        let id = nextID.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0.handlers[id] = Subscriber(queue: queue ?? delivery, deliver: deliver) }
        return id
    }

    func unsubscribe(_ id: Int) {
        _ = subscribers.withLock { $0.handlers.removeValue(forKey: id) }
    }

    func stream(limit: Int) -> PlayerEvents {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let buffer = EventBuffer(limit: limit) { [weak self] in
            _ = self?.subscribers.withLock { $0.buffers.removeValue(forKey: id) }
        }
        subscribers.withLock { $0.buffers[id] = WeakBuffer(buffer: buffer) }
        return PlayerEvents(buffer: buffer)
    }

    /// The player stopped: every sequence ends once its buffer is read.
    func finish() {
        subscribers.withLock { $0.buffers.values.compactMap(\.buffer) }.forEach { $0.finish() }
    }
}
