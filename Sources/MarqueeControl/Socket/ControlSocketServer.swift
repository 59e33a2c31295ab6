import Dispatch
import FoundationEssentials
import Glibc
import MarqueeCore
import Synchronization

/// The control socket (`[controls.socket]`): newline-delimited JSON
/// commands (the stdin channel's JSON form, with ids) from any number of
/// local clients, each answered on its own connection in the order it sent
/// them; `observe`/`unobserve` choose the events a connection is sent.
///
/// One thread (`marquee.socket`) serves every connection: it waits in
/// poll(2) on the listening socket, the clients and a wake-up eventfd, with
/// a timeout only while a connection has a status event due, so an idle
/// socket costs nothing. Commands run on that thread through the shared
/// `CommandExecutor` (they start things and return). Events come from any
/// thread through `broadcast`. A client that sends requests without reading
/// the replies is not read until it does; one that stops reading its events
/// is dropped once 1 MiB waits for it; a connection beyond `connectionLimit` is told so and
/// closed. A connection's descriptor is closed when it ends, by the peer or
/// by the server: nothing outlives it.
public final class ControlSocketServer: Sendable {
    /// Connections served at once.
    public static let connectionLimit = 32

    private struct Client {
        let socket: ClientSocket
        var connection = ControlConnection()
    }

    private struct State {
        var clients: [Int32: Client] = [:]
        var running = false
        var thread: pthread_t?
    }

    private let listener: ListeningSocket
    private let wake: StopEvent
    private let executor: CommandExecutor
    private let status: @Sendable () -> PlaybackStatus
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)
    private let clock = MonotonicClock()

    /// Binds the socket; serving starts with `start()`.
    /// - Parameters:
    ///   - mode: the socket file's permissions (0660: the user and group the player runs as).
    ///   - status: what status events carry; called on the socket's thread.
    ///   - log: a line for what goes wrong while serving (a client dropped).
    /// - Throws: `SocketError` naming the call (bind on a path in use, a missing folder, eventfd).
    public init(path: String, mode: mode_t = 0o660, executor: CommandExecutor,
                status: @escaping @Sendable () -> PlaybackStatus, log: @escaping @Sendable (String) -> Void) throws(SocketError) {
        guard let wake = StopEvent.make() else { throw SocketError("eventfd", path: path, errno: errno) }
        self.wake = wake
        listener = try ListeningSocket(path: path, mode: mode)
        self.executor = executor
        self.status = status
        self.log = log
    }

    public var path: String { listener.path }

    /// Connections open now.
    public var connectionCount: Int { state.withLock { $0.clients.count } }

    /// Starts serving on the socket's own thread.
    public func start() {
        guard state.withLock({ state in
            defer { state.running = true }
            return !state.running
        }) else { return }
        NamedThread.start("marquee.socket") { [self] in
            state.withLock { $0.thread = pthread_self() }
            serve()
            state.withLock { $0.clients.removeAll() }
            finished.signal()
        }
    }

    /// Stops serving: queued replies get one last try, every connection is
    /// closed and the thread ends. Returns once it has (at once when called
    /// on the socket's own thread, by a command). The socket file is removed
    /// here, not left to the server's release, which may come after the
    /// process has exited.
    public func stop() {
        let (wasRunning, onOwnThread) = state.withLock { state -> (Bool, Bool) in
            defer { state.running = false }
            return (state.running, state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        guard wasRunning else { return }
        listener.removeFile()
        wake.raise()
        if !onOwnThread { finished.wait() }
    }

    /// Sends `event` to every connection that observes its kind.
    public func broadcast(_ event: ControlEvent) {
        let line = event.line
        let queued = state.withLock { state -> Bool in
            var any = false
            for key in state.clients.keys where state.clients[key]!.connection.observes(event) {
                state.clients[key]!.connection.queue(line)
                any = true
            }
            return any
        }
        if queued { wake.raise() }
    }

    // MARK: The socket's thread

    private func serve() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var descriptors = [pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
            let (running, timeout) = state.withLock { state -> (Bool, Int32) in
                for (descriptor, client) in state.clients {
                    // A client that has finished sending is readable (at its end) for good: only its hang-up is
                    // watched; one with many replies unread is read again once it has read them.
                    let events = (client.connection.wantsInput ? POLLIN : 0) | (client.connection.hasOutput ? POLLOUT : 0)
                    descriptors.append(pollfd(fd: descriptor, events: Int16(events), revents: 0))
                }
                return (state.running, pollTimeout(until: state.clients.values.compactMap(\.connection.statusSchedule?.due).min()))
            }
            guard running else { break }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                log("control socket \(listener.path): poll: \(String(cString: strerror(errno))); the socket stops, playback goes on")
                break
            }
            wake.reset()
            if descriptors[0].revents & Int16(POLLIN) != 0 { acceptWaiting() }
            for entry in descriptors.dropFirst(2) where entry.revents != 0 {
                let gone = entry.revents & Int16(POLLHUP | POLLERR) != 0
                if gone || (entry.revents & Int16(POLLIN) != 0 && !receive(on: entry.fd, into: &buffer)) || !flush(entry.fd) {
                    drop(entry.fd)
                }
            }
            postDueStatus()
        }
        // Replies to the last commands (a quit's) get one try before the connections close.
        for descriptor in state.withLock({ Array($0.clients.keys) }) { _ = flush(descriptor) }
    }

    /// poll's timeout in milliseconds until `deadline` (-1: none).
    private func pollTimeout(until deadline: HostTime?) -> Int32 {
        guard let deadline else { return -1 }
        return Int32(max(0, min((deadline - clock.now()).secondsDouble * 1000, 60_000)).rounded(.up))
    }

    private func acceptWaiting() {
        while true {
            let socket: ClientSocket?
            do {
                socket = try listener.accept()
            } catch {
                log("\(error); waiting for the next connection")
                return
            }
            guard let socket else { return }
            state.withLock { state in
                var client = Client(socket: socket)
                if state.clients.count >= Self.connectionLimit {
                    // Told why, then closed: the client is not left waiting.
                    client.connection.queue(ControlReply(id: nil, outcome: .failure(ControlError(
                        "too many connections (\(Self.connectionLimit)); try again later"))).line(.json))
                    _ = client.connection.flush(to: socket.descriptor)
                    return
                }
                state.clients[socket.descriptor] = client
            }
        }
    }

    /// Reads what the client sent and answers each whole line.
    /// - Returns: false when the connection failed, or ended with nothing left to do.
    private func receive(on descriptor: Int32, into buffer: inout [UInt8]) -> Bool {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 {
                let last = state.withLock { $0.clients[descriptor]?.connection.splitter.finish() } ?? []
                for piece in last { answer(piece, from: descriptor) }
                return state.withLock { state in
                    state.clients[descriptor]?.connection.finishedSending = true
                    return state.clients[descriptor]?.connection.isNeeded ?? false
                }
            }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN
            }
            let pieces = state.withLock { $0.clients[descriptor]?.connection.splitter.feed(buffer[..<count]) } ?? []
            for piece in pieces { answer(piece, from: descriptor) }
            let more = state.withLock { $0.clients[descriptor]?.connection.wantsInput ?? false }
            if count < buffer.count || !more { return true }
        }
    }

    private func answer(_ piece: LineSplitter.Piece, from descriptor: Int32) {
        let request: ControlRequest
        do throws(ControlRequest.Failure) {
            guard let parsed = try ControlRequest.parse(piece, format: .json) else { return }
            request = parsed
        } catch {
            reply(ControlReply(id: error.id, outcome: .failure(error.error)), to: descriptor)
            return
        }
        switch request.command {
        case .observe(let subscription):
            state.withLock { $0.clients[descriptor]?.connection.observe(subscription, now: clock.now()) }
            let observed = subscription.arguments.joined(separator: " ")
            reply(ControlReply(id: request.id, outcome: .success(.done("observing \(observed)"))), to: descriptor)
        case .unobserve:
            state.withLock { $0.clients[descriptor]?.connection.observe(nil, now: clock.now()) }
            reply(ControlReply(id: request.id, outcome: .success(.done(nil))), to: descriptor)
        default:
            executor.handle(request) { reply($0, to: descriptor) }
        }
    }

    private func reply(_ reply: ControlReply, to descriptor: Int32) {
        state.withLock { _ = $0.clients[descriptor]?.connection.queue(reply.line(.json)) }
    }

    /// Writes what waits for `descriptor`; false when the client is gone or too far behind.
    private func flush(_ descriptor: Int32) -> Bool {
        state.withLock { state in
            guard var client = state.clients[descriptor] else { return true }
            defer { state.clients[descriptor] = client }
            return !client.connection.overflowed && client.connection.flush(to: descriptor)
        }
    }

    private func drop(_ descriptor: Int32) {
        let client = state.withLock { $0.clients.removeValue(forKey: descriptor) }
        if client?.connection.overflowed == true {
            log("control socket \(listener.path): a client that read nothing of \(ControlConnection.outboxLimit) bytes of events was dropped")
        }
    }

    private func postDueStatus() {
        let now = clock.now()
        let due = state.withLock { state in state.clients.values.contains { $0.connection.statusSchedule.map { $0.due <= now } ?? false } }
        guard due else { return }
        let line = ControlEvent(.status, status: status()).line
        state.withLock { state in
            for key in state.clients.keys where state.clients[key]!.connection.statusSchedule?.fire(at: now) == true {
                state.clients[key]!.connection.queue(line)
            }
        }
        // Written at the next turn, which comes at once: the descriptors now want POLLOUT.
        wake.raise()
    }
}
