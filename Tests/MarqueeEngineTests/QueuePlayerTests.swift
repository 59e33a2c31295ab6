import Foundation
import Marquee
import MarqueeTestSupport
import Synchronization
import Testing

@Suite struct QueuePlayerTests {
    @Test func aLoopedPlaylistCyclesItsItemsWithoutASeam() async throws {
        let one = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 25))
        let two = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([one, two], untimed: true, loop: .playlist)
        let ends = Mutex(0)
        _ = run.player.addEventHandler { event in
            guard case .didPlayToEnd = event else { return }
            // Three passes of the list, then let it end.
            if ends.withLock({ $0 += 1; return $0 }) == 5 { run.player.loopMode = .none }
        }
        try await run.playToEnd()
        let expected = (0..<3).flatMap { _ in Array(0..<25) + Array(0..<50) }
        #expect(run.video.frames.map(\.index) == expected.map(Optional.some))
        #expect(run.player.stats.snapshot.seams.allSatisfy { $0.gapMs == 0 })
        #expect(run.player.stats.snapshot.seams.count == 5)
    }

    /// `loopPasses` on a looped playlist: exactly that many passes of the
    /// queue, though the source reads the next pass before this one has
    /// played out; a broken item still takes its turn in each.
    @Test(arguments: [1, 3])
    func loopPassesPlaysThatManyPassesOfThePlaylist(passes: Int) async throws {
        let one = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 25))
        let two = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([one, "/nonexistent/missing.mp4", two], untimed: true, loop: .playlist, passes: passes)
        try await run.playToEnd()
        let expected = (0..<passes).flatMap { _ in Array(0..<25) + Array(0..<50) }
        #expect(run.video.frames.map(\.index) == expected.map(Optional.some))
    }

    @Test func loopPassesOnAOneItemPlaylist() async throws {
        let one = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 25))
        let run = try Run([one], untimed: true, loop: .playlist, passes: 2)
        try await run.playToEnd()
        #expect(run.video.frames.map(\.index) == (Array(0..<25) + Array(0..<25)).map(Optional.some))
    }

    @Test func insertRemoveAndAdvanceFollowAVQueuePlayer() throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 25))
        let a = PlayerItem(source: path), b = PlayerItem(source: path), c = PlayerItem(source: path)
        let player = QueuePlayer(items: [a, b], configuration: PlayerConfiguration(videoOutput: nil, audioOutput: nil,
                                                                                  hostClock: VirtualClock(), untimed: true))
        #expect(player.canInsert(c, after: a))
        #expect(!player.canInsert(a, after: nil), "an item already queued cannot be inserted again")
        player.insert(c, after: a)
        #expect(player.items.map(ObjectIdentifier.init) == [a, c, b].map(ObjectIdentifier.init))
        player.remove(c)
        #expect(player.items.count == 2)
        player.advanceToNextItem()
        #expect(player.currentItem === b)
        player.removeAllItems()
        #expect(player.items.isEmpty)
        #expect(player.currentItem == nil)
        player.stop()
    }

    @Test func replacingTheCurrentItemPlaysTheNewOne() async throws {
        let one = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 25))
        let two = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([one], untimed: false)
        run.player.play()
        try await Task.sleep(for: .milliseconds(300))
        run.player.replaceCurrentItem(with: PlayerItem(source: two))
        try await run.playToEnd(timeout: 20)
        let indexes = run.video.frames.compactMap(\.index)
        // After the switch the second item plays from its start to its end, in
        // order (a loaded machine may drop a late frame, never reorder).
        let restart = try #require(indexes.lastIndex { $0 <= 2 })
        let second = Array(indexes[restart...])
        #expect(second.first! <= 2)
        #expect(second.last == 49)
        #expect(second == second.sorted())
        #expect(second.count >= 40, "only \(second.count) of 50 frames of the new item shown")
    }

    @Test func mutedPlaybackWritesSilence() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 25))
        let run = try Run([path], untimed: true, wav: true)
        run.player.isMuted = true
        try await run.playToEnd()
        let samples = try wavSamples(try #require(run.audioPath))
        #expect(samples.count > 40000)
        #expect(samples.allSatisfy { $0 == 0 })
    }

    @Test func halfVolumeHalvesTheSamples() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 25))
        let full = try Run([path], untimed: true, wav: true)
        try await full.playToEnd()
        let half = try Run([path], untimed: true, wav: true)
        half.player.volume = 0.5
        try await half.playToEnd()
        let loud = try wavSamples(try #require(full.audioPath)), quiet = try wavSamples(try #require(half.audioPath))
        #expect(loud.count == quiet.count)
        let peakLoud = loud.map { abs(Int($0)) }.max() ?? 0, peakQuiet = quiet.map { abs(Int($0)) }.max() ?? 0
        #expect(abs(Double(peakQuiet) / Double(peakLoud) - 0.5) < 0.01)
    }
}
