import Foundation
import MarqueeControl
import MarqueeCore
import Synchronization
import Testing

/// `ScheduleFollower` on a manual real-time clock: content at the start, at
/// each change, and exactly one reading at once after every clock step.
@Suite struct ScheduleFollowerTests {
    /// 2026-03-02T00:00:00Z, a Monday.
    static let monday = 1_772_409_600.0

    /// A toy timetable: "night" before 08:00 UTC, "day" until 20:00, "night" after.
    static func timetable(_ time: WallTime) -> ScheduleFollower<String>.Reading {
        let day = (time.secondsSinceEpoch / 86_400).rounded(.down) * 86_400
        let into = time.secondsSinceEpoch - day
        if into < 8 * 3600 { return .init(content: "night", nextChange: WallTime(secondsSinceEpoch: day + 8 * 3600, utcOffset: 0)) }
        if into < 20 * 3600 { return .init(content: "day", nextChange: WallTime(secondsSinceEpoch: day + 20 * 3600, utcOffset: 0)) }
        return .init(content: "night", nextChange: WallTime(secondsSinceEpoch: day + 86_400 + 8 * 3600, utcOffset: 0))
    }

    final class Synchronisation: ClockSynchronisation, @unchecked Sendable {
        private let flag = Mutex(true)
        var isSynchronised: Bool {
            get { flag.withLock { $0 } }
            set { flag.withLock { $0 = newValue } }
        }
    }

    final class Applied: Sendable {
        let list = Mutex<[(String, ScheduleFollower<String>.Cause)]>([])
        var all: [(String, ScheduleFollower<String>.Cause)] { list.withLock { $0 } }
    }

    static func follower(_ clock: ManualWallClock, _ synchronisation: Synchronisation, _ applied: Applied) -> ScheduleFollower<String> {
        ScheduleFollower(clock: clock, alarm: clock, synchronisation: synchronisation, beforeClockSet: "unset",
                         read: timetable, apply: { content, cause in applied.list.withLock { $0.append((content, cause)) } },
                         failed: { Issue.record("alarm failed: \($0)") })
    }

    /// Waits until the follower sleeps again after a change; its readings then.
    static func settled(_ clock: ManualWallClock, _ follower: ScheduleFollower<String>) throws -> Int {
        #expect(clock.waitForWaiter(), "the follower did not go back to waiting")
        return follower.evaluations
    }

    @Test func changesAtBoundariesAndOnceAtOnceAfterEachStep() throws {
        let clock = ManualWallClock(secondsSinceEpoch: Self.monday + 7 * 3600)
        let synchronisation = Synchronisation()
        let applied = Applied()
        let follower = Self.follower(clock, synchronisation, applied)
        follower.start()
        defer { follower.stop() }
        #expect(try Self.settled(clock, follower) == 1)
        #expect(applied.all.map(\.0) == ["night"])
        #expect(applied.all.first?.1 == .start)

        // Time passing to just before the boundary changes nothing; reaching it does.
        clock.advance(to: Self.monday + 8 * 3600 - 1)
        #expect(try Self.settled(clock, follower) == 1)
        clock.advance(to: Self.monday + 8 * 3600)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(try Self.settled(clock, follower) == 2)
        #expect(applied.all.last.map { "\($0.0) \($0.1.rawValue)" } == "day boundary")

        // An hour back, across the boundary: one reading, the earlier content at once.
        let started = Date()
        clock.step(to: Self.monday + 7.5 * 3600)
        while applied.all.count < 3, Date().timeIntervalSince(started) < 2 { Thread.sleep(forTimeInterval: 0.005) }
        #expect(Date().timeIntervalSince(started) < 1, "a step back was not followed at once")
        #expect(try Self.settled(clock, follower) == 3)
        #expect(applied.all.last.map { "\($0.0) \($0.1.rawValue)" } == "night clock stepped")

        // An hour forward: one reading, back to day.
        clock.step(to: Self.monday + 8.5 * 3600)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(try Self.settled(clock, follower) == 4)
        #expect(applied.all.last.map { "\($0.0) \($0.1.rawValue)" } == "day clock stepped")

        // A step that changes nothing still reads once, and hands nothing on.
        clock.step(to: Self.monday + 9 * 3600)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(try Self.settled(clock, follower) == 5)
        #expect(applied.all.count == 4)
    }

    /// A board without a real-time clock boots in 1970: what plays before the
    /// clock is set, then the timetable once NTP steps it to now.
    @Test func fromNineteenSeventyToNow() throws {
        let clock = ManualWallClock(secondsSinceEpoch: 12)
        let synchronisation = Synchronisation()
        synchronisation.isSynchronised = false
        let applied = Applied()
        let follower = Self.follower(clock, synchronisation, applied)
        follower.start()
        defer { follower.stop() }
        #expect(try Self.settled(clock, follower) == 1)
        #expect(applied.all.map(\.0) == ["unset"])

        synchronisation.isSynchronised = true
        clock.step(to: Self.monday + 12 * 3600)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(try Self.settled(clock, follower) == 2)
        #expect(applied.all.last.map { "\($0.0) \($0.1.rawValue)" } == "day clock synchronised")
    }

    /// The kernel's timerfd: a deadline 0.2 s ahead in real time ends the wait then.
    @Test func theRealTimeAlarmEndsAtItsDeadline() throws {
        let alarm = try RealTimeAlarm()
        let now = SystemWallClock().now()
        let started = Date()
        let wake = try alarm.wait(until: WallTime(secondsSinceEpoch: now.secondsSinceEpoch + 0.2, utcOffset: now.utcOffset))
        #expect(wake == .reached)
        #expect(Date().timeIntervalSince(started) >= 0.19)
        #expect(try alarm.wait(until: WallTime(secondsSinceEpoch: now.secondsSinceEpoch - 10, utcOffset: 0)) == .reached,
                "a deadline already past ends the wait at once")
        alarm.cancel()
        #expect(try alarm.wait(until: nil) == .cancelled)
    }
}
