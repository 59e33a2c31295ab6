import Foundation
import Marquee
import MarqueeTestSupport
import Synchronization
import Testing

/// Issue 22, must-show 2 and 3 (the reverse half): untimed at rate -1, every
/// frame is presented once in strictly descending order, the same pictures
/// and times as forwards, muted; stepping from seeded random positions
/// lands on the next or previous frame exactly; what an item cannot do is
/// refused and the player goes on.
@Suite struct ReverseTests {
    struct File: Sendable, CustomStringConvertible {
        let description: String
        let path: @Sendable () throws -> String
        /// The pictures carry their frame number (an `indexed` fixture).
        var indexed = false
    }

    /// Two seconds between keyframes: at 320x240 a GOP fits the window whole.
    static let closedGOP = Fixtures.indexed(seconds: 6, fps: 25, encoderOptions: [
        "-preset", "veryfast", "-crf", "16", "-sc_threshold", "0", "-g", "50"])
    /// Leading B-frames before each keyframe that reference the GOP before.
    static let openGOP = Fixtures.indexed(seconds: 6, fps: 30, size: "160x96",
                                          encoderOptions: OpenGOPSeekTests.x264Options + ["-g", "60"])

    static let files: [File] = [
        File(description: "closed GOP, 2 s (H.264)", path: { try Fixtures.path(closedGOP) }, indexed: true),
        File(description: "open GOP, 2 s (H.264)", path: { try Fixtures.path(openGOP) }, indexed: true),
        File(description: "open GOP cut on a B-frame (edit list)", path: { try Fixtures.path(try OpenGOPSeekTests.cut(OpenGOPSeekTests.h264)) },
             indexed: true),
    ] + [
        "androidx/sample_edit_list.mp4", "androidx/bbb_800x640_768kbps_30fps_avc_pyramid_3b.mp4", "androidx/h265_bframes.mp4",
        "androidx/bbb_642x642_768kbps_30fps_vp9.webm", "interlace/bt601-525_480_interlaced_tff.mkv",
    ].map { name in File(description: name, path: { "\(SharedMedia.directory)/\(name)" }) }

    /// Untimed at -1 from the end: the frames of a forward play, each once,
    /// newest first (by the bar code where the file has one, else by pts),
    /// and no sound at all.
    @Test(arguments: files)
    func everyFrameOnceNewestFirst(_ file: File) async throws {
        let path = try file.path()
        let forwards = try Run([path], untimed: true, audio: false)
        try await forwards.playToEnd()
        let backwards = try Run([path], untimed: true, wav: true)
        try await backwards.playToEnd(rate: -1)

        let ahead = forwards.video.frames, back = backwards.video.frames
        try #require(ahead.count > 20, "\(file): \(ahead.count) frames forwards")
        #expect(back.count == ahead.count, "\(file): \(back.count) frames backwards, \(ahead.count) forwards")
        let descending = zip(back, back.dropFirst()).allSatisfy { $0.pts > $1.pts }
        #expect(descending, "\(file): not strictly descending: \(back.prefix(12).map(\.pts.seconds))")
        #expect(back.map(\.pts) == ahead.reversed().map(\.pts), "\(file): other frames backwards than forwards")
        if file.indexed {
            #expect(back.map(\.index) == ahead.reversed().map(\.index), "\(file): other pictures backwards than forwards")
            #expect(Set(back.compactMap(\.index)).count == back.count, "\(file): a picture shown twice")
        }
        let samples = try wavSamples(try #require(backwards.audioPath))
        #expect(samples.allSatisfy { $0 == 0 }, "\(file): sound played backwards (\(samples.count) samples)")
        #expect(backwards.player.stats.snapshot.framesDropped == 0)
        let events = backwards.eventLog
        #expect(events.contains { if case .didPlayToEnd = $0 { true } else { false } }, "\(file): no end at the start")
    }

    /// A 1080p GOP (50 frames, 155 MB decoded) is larger than the 96 MiB
    /// window: it is shown in pieces, still every frame once in order.
    @Test func aGOPLargerThanTheWindowIsDoneInPieces() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 3, fps: 25, size: "1920x1080", encoderOptions: [
            "-preset", "ultrafast", "-crf", "16", "-sc_threshold", "0", "-g", "50"]))
        let run = try Run([path], untimed: true, audio: false)
        try await run.playToEnd(rate: -1)
        #expect(run.video.frames.map(\.index) == (0..<75).reversed().map(Optional.some))
    }

    /// Looping backwards, the start is a seam: the item plays again from its end, each pass newest first.
    @Test func loopingBackwardsPlaysTheItemAgainFromItsEnd() async throws {
        let run = try Run([try Fixtures.path(Self.closedGOP)], untimed: true, audio: false, loop: .item, passes: 2)
        try await run.playToEnd(rate: -1)
        let once = (0..<150).reversed().map(Optional.some)
        #expect(run.video.frames.map(\.index) == once + once)
        #expect(zip(run.video.frames, run.video.frames.dropFirst()).allSatisfy { $0.display <= $1.display })
    }

    /// Paused, `step(byCount:)` from 12 seeded random frames lands on the
    /// next and the previous frame index exactly (and 5 on, 5 back); at the
    /// first and last frames a step goes no further.
    @Test(arguments: [files[0], files[1], files[3], files[4]])
    func stepsLandOnTheNeighbouringFrames(_ file: File) async throws {
        let path = try file.path()
        let forwards = try Run([path], untimed: true, audio: false)
        try await forwards.playToEnd()
        let order = forwards.video.frames.map(\.pts)
        let run = try Run([path], untimed: false, audio: false, keepsLog: false)
        let player = run.player

        /// The index in `order` of the frame on screen now.
        func onScreen() throws -> Int {
            let shown = try #require(run.video.frames.last)
            return try #require(order.firstIndex(of: shown.pts))
        }
        func step(_ count: Int) async throws -> Int {
            let before = run.video.frames.count
            let wait = try #require(player.step(byCount: count), "\(file): step \(count) refused")
            #expect(await wait(), "\(file): step \(count) superseded")
            // A step shows a frame, even at the item's ends, where it is the one that was up.
            #expect(run.video.frames.count == before + 1, "\(file): step \(count) presented \(run.video.frames.count - before) frames")
            return try onScreen()
        }
        let origin = try await Asset(source: path).load(.mediaDescription).startTime
        func show(_ index: Int) async {
            _ = await player.seek(to: order[index] - origin, toleranceBefore: .zero, toleranceAfter: .zero)
        }
        var random = SeededGenerator(seed: 2222)
        for _ in 0..<12 {
            await show(Int.random(in: 1..<(order.count - 5), using: &random))
            let start = try onScreen()
            #expect(try await step(1) == start + 1, "\(file): +1 from frame \(start)")
            #expect(try await step(-1) == start, "\(file): -1 back to frame \(start)")
            if start > 0 { #expect(try await step(-1) == start - 1, "\(file): -1 from frame \(start)") }
        }
        await show(0)
        #expect(try onScreen() == 0)
        #expect(try await step(5) == 5)
        #expect(try await step(-5) == 0)
        #expect(try await step(-1) == 0, "\(file): a step back from the first frame")
        #expect(player.rate == 0, "a step pauses")
        let last = order.count - 1
        await show(last)
        #expect(try onScreen() == last)
        #expect(try await step(1) == last, "\(file): a step on from the last frame")
        #expect(try await step(-2) == last - 2)
        #expect(player.currentItem?.canStepBackward == true && player.currentItem?.canPlayFastReverse == true)
    }
}

/// Issue 22, must-show 3 (rates and steps an item cannot take): refused with
/// the reason, and the player plays on as it was.
@Suite struct ReverseRefusalTests {
    static let picture = Fixtures.Recipe(name: "still-blue", fileExtension: "png", arguments: [
        "-f", "lavfi", "-i", "color=c=blue:size=320x240", "-frames:v", "1"])

    @Test func aStillPictureCannotGoBackwardsAndPlaysOn() async throws {
        let still = try Fixtures.path(Self.picture)
        let run = try Run([still], untimed: false, audio: false)
        let item = try #require(run.player.currentItem)
        item.imageDuration = 3600
        run.player.play()
        // Generous: the suite runs beside decode-heavy ones.
        let deadline = Date().addingTimeInterval(60)
        while run.video.frames.isEmpty || item.status != .readyToPlay, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(item.status == .readyToPlay)
        #expect(item.reverseRefusal == "a still picture has no frames to go back through")
        #expect(!item.canPlayReverse && !item.canPlaySlowReverse && !item.canPlayFastReverse && !item.canStepBackward && !item.canStepForward)
        run.player.rate = -1
        #expect(run.player.rate == 1, "a rate the item cannot take changed the rate")
        #expect(run.player.step(byCount: -1) == nil && run.player.step(byCount: 1) == nil && run.player.step(byCount: 0) == nil)
        #expect(run.player.timeControlStatus == .playing)
    }

    /// Asked before the item is open, the player finds out when it opens it:
    /// one event with the reason, and the picture plays forwards.
    @Test func aNegativeRateAskedBeforeTheItemOpensPlaysForwards() async throws {
        let still = try Fixtures.path(Self.picture)
        let run = try Run([still], untimed: false, audio: false)
        let refusals = Mutex<[String]>([])
        let token = run.player.addEventHandler { event in
            if case .reverseRefused(_, let reason) = event { refusals.withLock { $0.append(reason) } }
        }
        defer { run.player.removeEventHandler(token) }
        run.player.currentItem?.imageDuration = 3600
        run.player.rate = -2
        let deadline = Date().addingTimeInterval(60)
        while run.video.frames.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(run.video.frames.count >= 1, "nothing shown")
        #expect(run.player.rate == 2, "plays forwards at the speed asked for")
        #expect(refusals.withLock { $0 } == ["a still picture has no frames to go back through"])
    }

    @Test func zeroAndNaNAndHugeRatesDoNotStopThePlayer() async throws {
        let path = try Fixtures.path(ReverseTests.closedGOP)
        let run = try Run([path], untimed: false, audio: false)
        run.player.rate = -1000
        #expect(run.player.rate == -16)
        run.player.rate = .nan
        #expect(run.player.rate == -16)
        run.player.rate = -0.0001
        #expect(run.player.rate == -0.0625)
        run.player.rate = 0
        #expect(run.player.rate == 0 && run.player.timeControlStatus == .paused)
    }
}
