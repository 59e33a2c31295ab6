import Foundation

/// Runs a blocking call on its own thread (not the test's cooperative pool)
/// and hands its result back, so a test can drive a `ManualClock` meanwhile.
final class ThreadResult<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is written once by the worker and read under `condition`.
    private let condition = NSCondition()
    private var result: Value?

    func run(_ body: @escaping @Sendable () -> Value) {
        Thread.detachNewThread {
            let value = body()
            self.condition.lock()
            self.result = value
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return result != nil
    }

    /// The result, waiting up to `timeout` seconds of real time for it.
    func value(timeout: Double = 5) throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while result == nil {
            if !condition.wait(until: deadline) { break }
        }
        guard let result else { throw ThreadTimeout() }
        return result
    }
}

struct ThreadTimeout: Error, CustomStringConvertible {
    var description: String { "the blocked call did not return in time" }
}
