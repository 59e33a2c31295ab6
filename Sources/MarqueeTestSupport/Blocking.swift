import Foundation

/// Runs blocking work (waiting on a process, a pipe, a sleep) on its own
/// thread, not on Swift concurrency's cooperative threads: there are only as
/// many of those as cores (two here), and a test blocking one stalls every
/// other test in the run. Checks (`#expect`) stay in the async test body.
public enum Blocking {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }

    public static func sleep(_ seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
    }
}
