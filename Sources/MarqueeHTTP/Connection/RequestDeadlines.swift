import Dispatch
import FoundationEssentials
import Glibc
import MarqueeCore
import Synchronization

/// Cuts connections whose request is slow to arrive. MHD's own timeout
/// counts only silence, so a client sending a byte a second would hold a
/// connection, and its thread, for as long as it liked. Here each connection
/// that waits for a request has a deadline, from its start or from the end
/// of its previous response, until the request has arrived whole; one
/// thread shuts down the socket of any connection past its deadline, and
/// MHD's thread for it then reads the end and closes it.
///
/// Thread-safe. Connections are keyed by their MHD_Connection address,
/// valid from MHD's STARTED notice to its CLOSED one.
final class RequestDeadlines: Sendable {
    private struct Entry {
        let descriptor: Int32
        let peer: String
        /// nil while a request is being answered (or after a cut).
        var deadline: HostTime?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var isStopped = false

        var isWaitingWithoutDeadline: Bool { entries.values.allSatisfy { $0.deadline == nil } }
    }

    private let allowanceSeconds: Int
    private let clock = MonotonicClock()
    private let state = Mutex(State())
    private let signal = WakeSignal()
    private let finished = DispatchSemaphore(value: 0)
    private let log: @Sendable (String) -> Void

    /// Starts the cutting thread ("marquee.http"); `stop()` ends it.
    /// - Parameter allowanceSeconds: how long a request may take to arrive whole.
    init(allowanceSeconds: Int, log: @escaping @Sendable (String) -> Void) {
        self.allowanceSeconds = allowanceSeconds
        self.log = log
        NamedThread.start("marquee.http") { [self] in
            run()
            finished.signal()
        }
    }

    /// A connection was accepted: its first request is due within the allowance.
    func opened(_ connection: Int, descriptor: Int32, peer: String) {
        setDeadline(of: connection, adding: Entry(descriptor: descriptor, peer: peer))
    }

    /// More of a streamed body has arrived: the rest is due within the
    /// allowance from now, so an upload may take as long as it keeps coming.
    func bodyProgressed(_ connection: Int) {
        setDeadline(of: connection, adding: nil)
    }

    /// The connection's request has arrived whole; answering it has no deadline here.
    func requestArrived(_ connection: Int) {
        state.withLock { $0.entries[connection]?.deadline = nil }
    }

    /// The connection's response is over: its next request is due within the allowance.
    func responseEnded(_ connection: Int) {
        setDeadline(of: connection, adding: nil)
    }

    /// MHD is about to close the connection's socket.
    func closed(_ connection: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: connection) }
    }

    /// Ends the thread and returns once it is gone; any number of times,
    /// from any number of threads at once.
    func stop() {
        state.withLock { $0.isStopped = true }
        signal.raise()
        // The thread signals once as it ends; each caller passes it on.
        finished.wait()
        finished.signal()
    }

    private func setDeadline(of connection: Int, adding entry: Entry?) {
        let deadline = clock.now() + .seconds(allowanceSeconds)
        let wakeThread = state.withLock { state in
            let wasWaitingWithoutDeadline = state.isWaitingWithoutDeadline
            if let entry { state.entries[connection] = entry }
            state.entries[connection]?.deadline = deadline
            return wasWaitingWithoutDeadline
        }
        // Every deadline is now plus the same allowance, so a new one is never
        // earlier than one the thread already waits for: it needs waking
        // only when it waits for none.
        if wakeThread { signal.raise() }
    }

    private func run() {
        while true {
            let now = clock.now()
            var cut: [String] = []
            let wait: HostTime?? = state.withLock { state in
                if state.isStopped { return .none }
                for (connection, entry) in state.entries {
                    guard let deadline = entry.deadline, deadline <= now else { continue }
                    // The descriptor is still this connection's: MHD closes it only
                    // after its CLOSED notice, which waits for this lock.
                    shutdown(entry.descriptor, Int32(SHUT_RDWR))
                    state.entries[connection]?.deadline = nil
                    cut.append(entry.peer)
                }
                return .some(state.entries.values.compactMap(\.deadline).min())
            }
            guard case .some(let deadline) = wait else { return }
            for peer in cut {
                log("http \(peer): no whole request within \(allowanceSeconds) s; connection cut")
            }
            clock.wait(for: signal, until: deadline)
        }
    }
}
