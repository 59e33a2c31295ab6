@testable import Marquee
import MarqueeTestSupport
import Testing

/// `QueuePlayer.replacePlaylist(played:upcoming:)`, stepped on a virtual
/// clock (see `SteppedEngineTests`): what a watched folder's changes do to
/// the queue. Items are told apart by length: 1 s is 25 frames, 2 s 50, 3 s 75.
@Suite struct ReplacePlaylistTests {
    static func clip(seconds: Int) throws -> String {
        try Fixtures.path(Fixtures.indexed(seconds: seconds, fps: SteppedEngineTests.fps))
    }

    /// Lengths of the runs of frames (a run ends where the bar-code index starts over).
    static func runs(_ indexes: [Int?]) -> [Int] {
        var runs: [Int] = []
        for (position, index) in indexes.enumerated() {
            if position == 0 || index == 0 { runs.append(1) } else { runs[runs.count - 1] += 1 }
        }
        return runs
    }

    /// An empty queue that was told to play waits, presenting nothing, and
    /// plays the first item given to it at once.
    @Test func anEmptyPlayingQueueStartsTheFirstItemGiven() throws {
        let rig = SteppedEngineTests.Rig([])
        rig.player.play()
        rig.executor.run(for: 2)
        #expect(rig.indexes.isEmpty)
        let given = rig.clock.now()
        rig.player.replacePlaylist(played: [], upcoming: [PlayerItem(source: try Self.clip(seconds: 1))])
        #expect(rig.executor.run(for: 5), "playback did not end")
        #expect(rig.indexes == (0..<25).map(Optional.some))
        let first = try #require(rig.video.frames.first).display
        #expect((first - given).secondsDouble < 0.1, "first frame \((first - given).secondsDouble) s after the item came")
    }

    /// The current item keeps playing; `upcoming` follows it and `played`
    /// comes round in the next pass of a looping playlist.
    @Test func theCurrentItemKeepsItsPlaceBetweenPlayedAndUpcoming() throws {
        let rig = SteppedEngineTests.Rig([try Self.clip(seconds: 1), try Self.clip(seconds: 2)], loop: .playlist)
        rig.player.play()
        rig.executor.run(for: 0.3)
        let current = try #require(rig.player.currentItem)
        let three = PlayerItem(source: try Self.clip(seconds: 3))
        rig.player.replacePlaylist(played: [three], upcoming: [PlayerItem(source: try Self.clip(seconds: 2))])
        #expect(rig.player.playlist.items.map(ObjectIdentifier.init) == [three, current, rig.player.items[1]].map(ObjectIdentifier.init))
        #expect(rig.player.playlist.position == 1)
        rig.executor.run(for: 1 + 2 + 3 + 1 - 0.3 + 0.5)
        #expect(Self.runs(rig.indexes).prefix(4) == [25, 50, 75, 25], "\(Self.runs(rig.indexes))")
        #expect(rig.stats.framesDropped == 0)
    }
}
