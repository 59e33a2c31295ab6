import Foundation
import MarqueeControl
import MarqueeCore

/// Real time for tests that moves only when the test says: `advance(to:)`
/// as time passes (a waiter whose deadline it reaches wakes `.reached`),
/// `step(to:)` as a clock being set (every waiter wakes `.stepped`). The
/// zone's UTC offset at an instant comes from `offset`.
///
/// Thread-safe: any thread may read, wait, advance or step.
final class ManualWallClock: WallClock, WallClockAlarm, @unchecked Sendable {
    // @unchecked: every field is only touched with `condition` locked.
    private let condition = NSCondition()
    private var seconds: Double
    private var steps = 0
    private var cancelled = false
    private var waiting = 0
    private let offset: @Sendable (Double) -> Int

    init(secondsSinceEpoch: Double, offset: @escaping @Sendable (Double) -> Int = { _ in 0 }) {
        seconds = secondsSinceEpoch
        self.offset = offset
    }

    func now() -> WallTime {
        condition.lock()
        defer { condition.unlock() }
        return WallTime(secondsSinceEpoch: seconds, utcOffset: offset(seconds))
    }

    func wait(until deadline: WallTime?) -> WallClockWake {
        condition.lock()
        defer { condition.unlock() }
        let stepsBefore = steps
        waiting += 1
        condition.broadcast()
        defer {
            waiting -= 1
            condition.broadcast()
        }
        while true {
            if cancelled { return .cancelled }
            if steps != stepsBefore { return .stepped }
            if let deadline, seconds >= deadline.secondsSinceEpoch { return .reached }
            condition.wait()
        }
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Time passing to `target` (never backwards).
    func advance(to target: Double) {
        condition.lock()
        seconds = max(seconds, target)
        condition.broadcast()
        condition.unlock()
    }

    /// The clock set to `target`, forwards or back.
    func step(to target: Double) {
        condition.lock()
        seconds = target
        steps += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until a thread waits on the clock (after the last change), or `timeout` seconds; false on timeout.
    func waitForWaiter(timeout: Double = 5) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while waiting == 0 {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}
