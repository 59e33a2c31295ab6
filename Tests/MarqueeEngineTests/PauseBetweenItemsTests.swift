import Marquee
import MarqueeTestSupport
import Testing

/// `[playback] between_items` with a duration: a pause between playlist items,
/// in silence, on the last frame or on a blank picture.
@Suite struct PauseBetweenItemsTests {
    static let pause = 0.5

    @Test func aBlankPauseShowsOnePictureAndHalfASecondOfSilence() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path, path], untimed: true, wav: true, between: .blank(seconds: Self.pause, rgb: 0x000000))
        try await run.playToEnd()
        let frames = run.video.frames
        #expect(frames.count == 101)
        guard frames.count == 101 else { return }
        #expect(frames[..<50].map(\.index) == (0..<50).map(Optional.some))
        #expect(frames[51...].map(\.index) == (0..<50).map(Optional.some))
        #expect(abs(frames[50].pts.seconds - 2) < 0.001, "the pause picture sits at the first item's end, not at \(frames[50].pts.seconds) s")
        try expectSilentPause(run)
    }

    @Test func aHeldPauseKeepsTheLastFrameUpInSilence() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path, path], untimed: true, wav: true, between: .hold(seconds: Self.pause))
        try await run.playToEnd()
        #expect(run.video.frames.map(\.index) == (0..<100).map { Optional.some($0 % 50) })
        let seams = run.player.stats.snapshot.seams
        #expect(seams.count == 1)
        // Frames land on the display's vblanks (60 Hz): the pause is kept to within one refresh.
        let refreshMs = try #require(run.video.refreshInterval).secondsDouble * 1000
        #expect(abs((seams.first?.gapMs ?? 0) - Self.pause * 1000) <= refreshMs, "the last frame stayed \(seams.first?.gapMs ?? 0) ms extra")
        try expectSilentPause(run)
    }

    /// Exactly the pause, silent, between two items' worth of tone.
    private func expectSilentPause(_ run: Run) throws {
        let samples = try wavSamples(try #require(run.audioPath))
        let item = 96000, pause = Int(Self.pause * 48000)
        #expect(samples.count / 2 == 2 * item + pause, "\(samples.count / 2) frames")
        guard samples.count / 2 == 2 * item + pause else { return }
        #expect(samples[(2 * item)..<(2 * (item + pause))].allSatisfy { $0 == 0 }, "the pause is not silent")
        #expect(samples[(2 * (item - 480))..<(2 * item)].contains { abs(Int($0)) > 1000 }, "the tone stopped before the pause")
        #expect(samples[(2 * (item + pause))..<(2 * (item + pause + 480))].contains { abs(Int($0)) > 1000 }, "no tone after the pause")
    }
}
