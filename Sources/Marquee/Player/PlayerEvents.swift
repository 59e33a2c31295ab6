import Synchronization

/// A player's events as an `AsyncSequence` with a bounded buffer
/// (`Player.events(bufferLimit:)`). A consumer that stops reading costs at
/// most `bufferLimit` events of memory: the oldest are dropped, counted, and
/// reported as one `.eventsDropped(count)` where they would have been. The
/// sequence ends when the player stops or the consuming task is cancelled.
public struct PlayerEvents: AsyncSequence, Sendable {
    public typealias Element = PlayerEvent
    /// Enough for minutes of a busy playlist's events between two reads.
    public static let defaultBufferLimit = 1024

    let buffer: EventBuffer

    /// Events lost so far because the consumer fell behind.
    public var droppedCount: Int { buffer.droppedCount }

    public func makeAsyncIterator() -> Iterator { Iterator(buffer: buffer) }

    public struct Iterator: AsyncIteratorProtocol {
        let buffer: EventBuffer

        public mutating func next() async -> PlayerEvent? { await buffer.next() }
    }
}

/// The ring of one `PlayerEvents` consumer. The hub appends to it as it
/// posts (no queue in between that could grow); the consumer takes from it.
final class EventBuffer: Sendable {
    private struct State {
        var events: [PlayerEvent] = []
        var head = 0
        var dropped = 0
        /// Drops the consumer has not been told about yet.
        var unreported = 0
        var waiter: CheckedContinuation<PlayerEvent?, Never>?
        var finished = false

        var count: Int { events.count - head }

        mutating func popFirst() -> PlayerEvent? {
            guard head < events.count else { return nil }
            let event = events[head]
            head += 1
            // Compact once the consumed prefix is as large as what is left.
            if head > 64, head * 2 >= events.count {
                events.removeFirst(head)
                head = 0
            }
            return event
        }
    }

    private let state = Mutex(State())
    let limit: Int
    /// Runs when the last reference goes: the hub forgets this buffer.
    private let onRelease: @Sendable () -> Void

    init(limit: Int, onRelease: @escaping @Sendable () -> Void) {
        self.limit = max(limit, 1)
        self.onRelease = onRelease
    }

    deinit { onRelease() }

    var droppedCount: Int { state.withLock { $0.dropped } }
    /// Events waiting to be read.
    var bufferedCount: Int { state.withLock { $0.count } }

    func append(_ event: PlayerEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<PlayerEvent?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.count >= limit {
                _ = state.popFirst()
                state.dropped += 1
                state.unreported += 1
            }
            state.events.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<PlayerEvent?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    func next() async -> PlayerEvent? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> PlayerEvent?? in
                    if state.unreported > 0 {
                        defer { state.unreported = 0 }
                        return .some(.eventsDropped(state.unreported))
                    }
                    if let event = state.popFirst() { return .some(event) }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }
}
