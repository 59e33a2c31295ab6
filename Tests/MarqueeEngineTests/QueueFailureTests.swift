import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// Must-show 5: a broken item is skipped; the show goes on.
@Suite struct QueueFailureTests {
    @Test func goodMissingCorruptGoodPlaysBothGoodItems() async throws {
        let good = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 25))
        let missing = "/nonexistent/missing.mp4"
        let corrupt = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID().uuidString).mp4").path
        var generator = SeededGenerator(seed: 0xbad)
        try Data((0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: corrupt))
        let good2 = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))

        let run = try Run([good, missing, corrupt, good2], untimed: true)
        let items = run.player.items
        try await run.playToEnd()

        #expect(run.video.frames.map(\.index) == (Array(0..<25) + Array(0..<50)).map(Optional.some))
        #expect(items[0].status == .readyToPlay)
        #expect(items[1].status == .failed)
        #expect(items[2].status == .failed)
        #expect(items[3].status == .readyToPlay)
        #expect("\(items[1].error!)".contains(missing))
        #expect("\(items[1].error!)".contains("No such file or directory"))
        #expect("\(items[2].error!)".contains(corrupt))

        let log = run.eventLog.map(\.description)
        func position(_ text: String) -> Int? { log.firstIndex { $0 == text } }
        let order = [
            "item \(good) readyToPlay", "current item \(good)",
            "item \(missing) failed", "item \(corrupt) failed", "item \(good2) readyToPlay",
            "did play to end \(good)", "current item \(good2)", "did play to end \(good2)", "playback finished",
        ].map { (text: $0, at: position($0)) }
        for event in order { #expect(event.at != nil, "missing event: \(event.text) in \(log)") }
        let indexes = order.compactMap(\.at)
        #expect(indexes == indexes.sorted(), "events out of order: \(log)")
        #expect(run.player.stats.snapshot.seams.count == 1)
        #expect(run.player.status == .readyToPlay, "a failed item among good ones does not fail the player")
    }

    @Test func aQueueOfOnlyBrokenItemsEndsInsteadOfSpinning() async throws {
        let run = try Run(["/nonexistent/a.mp4", "/nonexistent/b.mkv"], untimed: true)
        try await run.playToEnd(timeout: 60)
        #expect(run.player.items.allSatisfy { $0.status == .failed } || run.player.items.isEmpty)
        #expect(run.video.frames.isEmpty)
        // Nothing could be played: the player has failed, with the last item's reason.
        #expect(run.player.status == .failed)
        #expect(run.player.error.map { "\($0)" }?.contains("/nonexistent/b.mkv") == true, "\(String(describing: run.player.error))")
    }
}
