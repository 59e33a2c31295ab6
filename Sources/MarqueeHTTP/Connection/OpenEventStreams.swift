import Synchronization

/// The event streams now being sent, so that stopping the server can end
/// them: a stream blocked in its feed's `next` holds its connection thread,
/// and MHD_stop_daemon waits for every connection thread.
///
/// Thread-safe.
final class OpenEventStreams: Sendable {
    private struct State {
        var isStopping = false
        var streams: [ObjectIdentifier: EventStream] = [:]
    }

    private let state = Mutex(State())

    /// Adds a stream about to be sent; after `endAll()` ends it instead, so
    /// its reader answers end of stream at once.
    func add(_ stream: EventStream) {
        let added = state.withLock { state in
            guard !state.isStopping else { return false }
            state.streams[ObjectIdentifier(stream)] = stream
            return true
        }
        if !added { stream.end() }
    }

    func remove(_ stream: EventStream) {
        _ = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// Ends every open stream and every one added later.
    func endAll() {
        let streams = state.withLock { state in
            state.isStopping = true
            return Array(state.streams.values)
        }
        // Outside the lock: ending one removes it, and closes a feed whose
        // producer may take locks of its own.
        for stream in streams { stream.end() }
    }
}
