import Foundation
import Marquee
import MarqueeTestSupport
import Synchronization
import Testing

/// Must-show 6: periodic observers fire on time; removed ones never again.
@Suite(.serialized) struct TimeObserverTests {
    final class Witness: Sendable {}

    @Test func aPeriodicObserverFiresNearEachMultipleAndARemovedOneNeverAgain() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 3, fps: 25))
        let run = try Run([path], untimed: false)
        let fired = Mutex<[Double]>([])
        let token = run.player.addPeriodicTimeObserver(forInterval: MediaTime(value: 1, timescale: 2)) { time in
            fired.withLock { $0.append(time.seconds) }
        }

        let removedCalls = Mutex(0)
        weak var released: Witness?
        var removable: TimeObserverToken?
        do {
            let witness = Witness()
            released = witness
            removable = run.player.addPeriodicTimeObserver(forInterval: MediaTime(value: 1, timescale: 10)) { [witness] _ in
                _ = witness
                removedCalls.withLock { $0 += 1 }
            }
        }
        #expect(released != nil)
        run.player.play()
        try await Task.sleep(for: .milliseconds(400))
        run.player.removeTimeObserver(try #require(removable))
        removable = nil
        try await Task.sleep(for: .milliseconds(50))
        let callsAtRemoval = removedCalls.withLock { $0 }
        #expect(callsAtRemoval >= 2)
        #expect(released == nil, "the removed observer's closure was not released")

        try await run.playToEnd(timeout: 20)
        run.player.removeTimeObserver(token)
        try await Task.sleep(for: .milliseconds(50))
        #expect(removedCalls.withLock { $0 } == callsAtRemoval, "a removed observer fired")

        let times = fired.withLock { $0 }
        for multiple in [0.5, 1.0, 1.5, 2.0, 2.5] {
            let hit = times.first { $0 >= multiple - 1e-6 && $0 < multiple + 0.04 + 1e-6 }
            #expect(hit != nil, "nothing within one frame of \(multiple) s: \(times)")
        }
        // Also on start (time 0) and at the stop.
        #expect(times.first == 0)
        #expect(times.count >= 7)
    }

    @Test func aBoundaryObserverFiresWhenPlaybackCrossesItsTimes() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: true)
        let fired = Mutex<[Double]>([])
        _ = run.player.addBoundaryTimeObserver(forTimes: [0.3, 1.5].map { MediaTime(seconds: $0, preferredTimescale: 600) }) { time in
            fired.withLock { $0.append(time.seconds) }
        }
        try await run.playToEnd()
        try await Task.sleep(for: .milliseconds(50))
        #expect(fired.withLock { $0 }.map { ($0 * 10).rounded() / 10 } == [0.3, 1.5])
    }
}
