import MarqueeCore
import Testing

/// The wall schedule's arithmetic (issue 41): where a looping playlist is
/// at a wall time, and when a frame of an item is due near a time.
@Suite struct WallScheduleTests {
    let schedule = WallSchedule(epoch: 1_000, durations: [10, 2.5, 7.5])!

    @Test func aPositionIsTheLoopsRemainderFromTheEpoch() {
        #expect(schedule.length == 20)
        #expect(schedule.position(at: 1_000) == (0, 0))
        #expect(schedule.position(at: 1_011) == (1, 1))
        #expect(schedule.position(at: 1_012.5) == (2, 0))
        // Many loops later, and before the epoch (the loop runs backwards in time too).
        #expect(schedule.position(at: 1_000 + 20 * 1_000_003 + 13) == (2, 0.5))
        #expect(schedule.position(at: 995) == (2, 2.5))
    }

    @Test func aFrameIsDueAtItsOccurrenceNearestTheTimeAsked() {
        // Item 1, 1 s in: 1011, 1031, 1051...
        #expect(schedule.due(index: 1, itemTime: 1, near: 1_030) == 1_031)
        #expect(schedule.due(index: 1, itemTime: 1, near: 1_040) == 1_031)
        #expect(schedule.due(index: 1, itemTime: 1, near: 1_042) == 1_051)
        #expect(schedule.due(index: 0, itemTime: 0, near: 985) == 980)
    }

    @Test func aScheduleNeedsItemsOfPositiveLength() {
        #expect(WallSchedule(epoch: 0, durations: []) == nil)
        #expect(WallSchedule(epoch: 0, durations: [5, 0]) == nil)
        #expect(WallSchedule(epoch: 0, durations: [5, .nan]) == nil)
    }
}
