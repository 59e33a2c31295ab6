import Dispatch
import Synchronization

/// Runs async work to its end and returns its result, blocking the calling
/// thread meanwhile: for the library's async API (`Asset.load`,
/// `ImageGenerator`) called from threads that are the player's own and may
/// block (an HTTP connection's), never from the cooperative pool, which
/// the work itself needs.
func waitFor<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
    let result = Mutex<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<Value, any Error>
        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    // The task stored a result before it signalled.
    return try result.withLock { $0! }.get()
}
