import Foundation
import MarqueeCore
import Testing

/// `WakeSignal` (what a stage's thread waits on) and `SystemWallClock`.
@Suite struct ClockSignalTests {
    @Test func aRaiseBeforeTheWaitIsKeptAndConsumedOnce() {
        let signal = WakeSignal()
        signal.raise()
        let clock = MonotonicClock()
        let start = clock.now()
        clock.wait(for: signal, until: start + .seconds(5))
        #expect(clock.now() - start < .seconds(1), "a pending raise must end the wait at once")
        #expect(!signal.take(), "the wait consumed the raise")
    }

    @Test func aWaitEndsAtItsDeadlineOnTheMonotonicClock() {
        let signal = WakeSignal()
        let clock = MonotonicClock()
        let start = clock.now()
        clock.wait(for: signal, until: start + .milliseconds(50))
        #expect(clock.now() - start >= .milliseconds(50))
        // A deadline already past returns at once.
        let again = clock.now()
        clock.wait(for: signal, until: again + .milliseconds(-10))
        #expect(clock.now() - again < .seconds(1))
    }

    @Test func aRaiseFromAnotherThreadWakesAWaiterWithoutADeadline() async {
        let signal = WakeSignal()
        let woke = DispatchSemaphore(value: 0)
        Thread {
            signal.wait(untilMonotonic: nil)
            woke.signal()
        }.start()
        try? await Task.sleep(for: .milliseconds(50))
        #expect(woke.wait(timeout: .now()) == .timedOut, "woke without a raise")
        signal.raise()
        #expect(woke.wait(timeout: .now() + 5) == .success)
    }

    @Test func theSystemWallClockIsRealTimeInTheLocalZone() {
        let now = SystemWallClock().now()
        #expect(abs(now.secondsSinceEpoch - Date().timeIntervalSince1970) < 1)
        #expect(now.utcOffset == TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: now.secondsSinceEpoch)))
    }

    @Test func localTimeOfDayFollowsTheOffset() {
        // 2026-12-01T06:30:00Z is 07:30 in UTC+1 and 22:30 the day before in UTC-8.
        let utc = 1_796_106_600.0
        #expect(WallTime(secondsSinceEpoch: utc, utcOffset: 0).secondsIntoLocalDay == 6.5 * 3600)
        #expect(WallTime(secondsSinceEpoch: utc, utcOffset: 3600).secondsIntoLocalDay == 7.5 * 3600)
        #expect(WallTime(secondsSinceEpoch: utc, utcOffset: -8 * 3600).secondsIntoLocalDay == 22.5 * 3600)
    }
}
