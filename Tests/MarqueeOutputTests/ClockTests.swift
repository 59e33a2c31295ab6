import Foundation
import Marquee
import MarqueeTestSupport
import Testing

@Suite struct ClockTests {
    @Test func monotonicClockMovesForwardAndSleepsToTheDeadline() {
        let clock = MonotonicClock()
        let start = clock.now()
        let deadline = start + .milliseconds(20)
        clock.sleep(until: deadline)
        let woke = clock.now()
        #expect(woke >= deadline)
        #expect(woke - deadline < .milliseconds(200), "overslept by \(woke - deadline)")
        // It is CLOCK_MONOTONIC in nanoseconds (not the wall clock, not another unit).
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        #expect(abs(clock.now().seconds - (Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)) < 0.5)
    }

    @Test func monotonicSleepToThePastReturnsAtOnce() {
        let clock = MonotonicClock()
        let before = clock.now()
        clock.sleep(until: before + .seconds(-5))
        clock.sleep(until: HostTime(nanoseconds: -1))
        #expect(clock.now() - before < .milliseconds(50))
    }

    @Test func virtualClockJumpsToDeadlinesAndNeverGoesBack() {
        let clock = VirtualClock(start: HostTime(nanoseconds: 1_000))
        #expect(clock.now() == HostTime(nanoseconds: 1_000))
        let realStart = MonotonicClock().now()
        clock.sleep(until: HostTime(nanoseconds: 3_000_000_000))
        #expect(clock.now() == HostTime(nanoseconds: 3_000_000_000))
        #expect(MonotonicClock().now() - realStart < .milliseconds(100), "a virtual sleep must not block")
        clock.sleep(until: HostTime(nanoseconds: 5))
        #expect(clock.now() == HostTime(nanoseconds: 3_000_000_000))
    }

    @Test func virtualClockEndsAtTheLatestDeadlineOfConcurrentSleepers() async {
        let clock = VirtualClock()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 1...1000 { clock.sleep(until: HostTime(nanoseconds: Int64(step * 10 + worker))) }
                }
            }
        }
        #expect(clock.now() == HostTime(nanoseconds: 10_007))
    }

    @Test func manualClockSleepBlocksUntilAdvancedPastTheDeadline() throws {
        let clock = ManualClock()
        let woke = ThreadResult<HostTime>()
        woke.run { clock.sleep(until: HostTime(nanoseconds: 100)); return clock.now() }
        #expect(clock.waitForSleepers(1))
        #expect(clock.sleepingUntil == [HostTime(nanoseconds: 100)])
        clock.advance(by: .nanoseconds(99))
        Thread.sleep(forTimeInterval: 0.05)
        #expect(!woke.isFinished, "woke before its deadline")
        clock.advance(by: .nanoseconds(1))
        #expect(try woke.value() == HostTime(nanoseconds: 100))
        #expect(clock.sleepingUntil.isEmpty)
    }
}
