import Dispatch

/// Runs blocking work (probing a file, decoding a picture: I/O with
/// timeouts of seconds) on a Dispatch thread and awaits it, so it never ties
/// up a thread of Swift's cooperative pool.
func offCooperativePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(with: Result { try work() })
        }
    }
}
