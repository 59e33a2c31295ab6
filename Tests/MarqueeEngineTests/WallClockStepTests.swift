@testable import Marquee
import MarqueeTestSupport
import Synchronization
import Testing

/// Issue 41, must-show 3, on the engine's own stages stepped on a virtual
/// clock (`StageExecutor`): a player following a wall schedule on a 60 Hz
/// display; the wall clock stepped 0.5 s forward, later 0.5 s back. Each
/// step costs one jump, after which every frame is within a frame of the
/// schedule again, and the picture never stands still longer than the jump.
@Suite struct WallClockStepTests {
    /// The wall clock: the virtual host clock's time on a date, plus the steps so far.
    final class SteppedWallClock: WallClock, Sendable {
        let host: VirtualClock
        let steps = Mutex(0.0)

        init(host: VirtualClock) { self.host = host }

        func now() -> WallTime {
            WallTime(secondsSinceEpoch: 1_796_000_000 + host.now().seconds + steps.withLock { $0 }, utcOffset: 0)
        }
    }

    @Test func aStepOfTheWallClockIsOneJumpAndThenEveryFrameIsOnTime() async throws {
        let clock = VirtualClock(start: HostTime(nanoseconds: 1_000_000_000))
        let wall = SteppedWallClock(host: clock)
        let video = NullVideoOutput(clock: clock, refreshRate: 60)
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 4, fps: 25))
        let player = StageExecutor.player([clip, clip], video: video, audio: nil, clock: clock, loop: .playlist, wallClock: wall)
        let executor = StageExecutor(player: player, clock: clock, latency: (0x5eed, 0.002))
        let length = try await Asset(source: clip).load(.duration).seconds
        // An epoch that puts the start in the middle of the second item.
        let schedule = try #require(WallSchedule(epoch: wall.now().secondsSinceEpoch - 1_000 * 2 * length - length - 1.37,
                                                 durations: [length, length]))
        player.followWallClock(schedule)
        player.play()
        executor.run(for: 5)
        let start = player.stats.snapshot.wallCorrections
        #expect(start == 1, "the jump to the schedule's place at the start")
        func settled(after step: Double) throws -> (holdMs: Double, worstMs: Double) {
            let before = player.stats.presentationLog.count
            wall.steps.withLock { $0 += step }
            executor.run(for: 5)
            let after = Array(player.stats.presentationLog[before...])
            // From the jump's first frame on: every frame within a frame (40 ms) of the schedule.
            let jumped = try #require(after.firstIndex { abs($0.wallOffsetMs ?? .infinity) < 40 }, "never back on the schedule")
            let worst = after[jumped...].map { abs($0.wallOffsetMs ?? .infinity) }.max() ?? .infinity
            // The longest the picture stood still: the jump, and no more.
            let times = [player.stats.presentationLog[before - 1].displayTime] + after.map(\.displayTime)
            let hold = zip(times, times.dropFirst()).map { ($1 - $0) * 1000 }.max() ?? 0
            return (hold, worst)
        }
        let forward = try settled(after: 0.5)
        #expect(player.stats.snapshot.wallCorrections == start + 1)
        #expect(forward.worstMs < 40 && forward.holdMs < 1_000, "0.5 s forward: worst \(forward.worstMs) ms, held \(forward.holdMs) ms")
        let back = try settled(after: -0.5)
        #expect(player.stats.snapshot.wallCorrections == start + 2)
        #expect(back.worstMs < 40 && back.holdMs < 1_000, "0.5 s back: worst \(back.worstMs) ms, held \(back.holdMs) ms")
        #expect(player.stats.snapshot.framesDropped <= 2, "\(player.stats.snapshot.framesDropped) frames dropped")
        print("wall clock step: +0.5 s held the picture \(Int(forward.holdMs)) ms, then within \(String(format: "%.1f", forward.worstMs)) ms; "
              + "-0.5 s held \(Int(back.holdMs)) ms, then within \(String(format: "%.1f", back.worstMs)) ms; \(player.stats.snapshot.framesDropped) dropped")
    }
}
