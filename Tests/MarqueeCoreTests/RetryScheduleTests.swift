import MarqueeCore
import Testing

/// Issue 17: the back-off for a source that went away.
@Suite struct RetryScheduleTests {
    @Test func delaysDoubleFromOneSecondToTheCap() {
        let schedule = RetrySchedule()
        #expect((1...8).map { schedule.delay(beforeRetry: $0, unit: 0) } == [1, 2, 4, 8, 16, 30, 30, 30])
        #expect(RetrySchedule(cap: 5).delay(beforeRetry: 4, unit: 0) == 5)
        #expect(schedule.delay(beforeRetry: 10_000, unit: 0) == 30, "a long outage must not overflow")
    }

    @Test func jitterMovesEachDelayByAtMostItsFractionAndNeverPastTheCap() {
        let schedule = RetrySchedule(jitter: 0.1)
        #expect(abs(schedule.delay(beforeRetry: 3, unit: -1) - 3.6) < 1e-9)
        #expect(abs(schedule.delay(beforeRetry: 3, unit: 1) - 4.4) < 1e-9)
        #expect(schedule.delay(beforeRetry: 3, unit: 7) == schedule.delay(beforeRetry: 3, unit: 1), "unit is clamped to -1...1")
        #expect(schedule.delay(beforeRetry: 9, unit: 1) == 30)
        #expect(abs(schedule.delay(beforeRetry: 9, unit: -1) - 27) < 1e-9)
    }

    @Test func valuesOutOfRangeAreBroughtIntoRange() {
        let schedule = RetrySchedule(initial: -3, cap: .nan, jitter: 9)
        #expect(schedule.initial == 0.01 && schedule.cap == 30 && schedule.jitter == 0.5)
        #expect(RetrySchedule(initial: 10, cap: 2).cap == 10)
    }
}
