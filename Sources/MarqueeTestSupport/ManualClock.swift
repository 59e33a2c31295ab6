import Foundation
import MarqueeCore

/// A clock for unit tests that moves only when the test calls `advance(by:)`.
/// `sleep(until:)` really blocks the calling thread until the test advances
/// to (or past) the deadline, so blocking behaviour can be tested step by step.
///
/// Thread-safe: any thread may read, sleep or advance.
public final class ManualClock: HostClock, @unchecked Sendable {
    // @unchecked: `time` and `sleepers` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var time: HostTime
    private var sleepers: [HostTime] = []
    /// Signals of threads in `wait(for:until:)`: raised on every advance so
    /// each looks at its deadline again.
    private var waiting: [ObjectIdentifier: WakeSignal] = [:]

    public init(start: HostTime = HostTime(nanoseconds: 0)) {
        time = start
    }

    public func now() -> HostTime {
        condition.lock()
        defer { condition.unlock() }
        return time
    }

    /// Blocks until the test advances the clock to `deadline` or later.
    public func sleep(until deadline: HostTime) {
        condition.lock()
        defer { condition.unlock() }
        sleepers.append(deadline)
        condition.broadcast() // wakes `waitForSleepers`
        while time < deadline { condition.wait() }
        sleepers.remove(at: sleepers.firstIndex(of: deadline)!)
        condition.broadcast()
    }

    /// Waits for `signal`, or until the test advances the clock to
    /// `deadline`; counted among the sleepers while it has a deadline.
    public func wait(for signal: WakeSignal, until deadline: HostTime?) {
        condition.lock()
        if let deadline, time >= deadline {
            condition.unlock()
            return
        }
        waiting[ObjectIdentifier(signal)] = signal
        if let deadline { sleepers.append(deadline) }
        condition.broadcast()
        condition.unlock()
        signal.wait(untilMonotonic: nil)
        condition.lock()
        waiting[ObjectIdentifier(signal)] = nil
        if let deadline { sleepers.remove(at: sleepers.firstIndex(of: deadline)!) }
        condition.broadcast()
        condition.unlock()
    }

    /// Moves time forward by `duration` and wakes the sleepers whose deadline passed.
    public func advance(by duration: Duration) {
        condition.lock()
        defer { condition.unlock() }
        time = time + duration
        waiting.values.forEach { $0.raise() }
        condition.broadcast()
    }

    /// Deadlines of the threads blocked in `sleep(until:)` now, earliest first.
    public var sleepingUntil: [HostTime] {
        condition.lock()
        defer { condition.unlock() }
        return sleepers.sorted()
    }

    /// Waits (in real time, up to `timeout` seconds) until `count` threads are
    /// blocked in `sleep(until:)`, so a test advances only once the code under
    /// test is actually waiting. Returns false on timeout.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, timeout: Double = 5) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while sleepers.count < count {
            if !condition.wait(until: deadline) { return sleepers.count >= count }
        }
        return true
    }
}
