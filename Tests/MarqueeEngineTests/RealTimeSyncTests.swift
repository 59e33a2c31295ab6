import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// Must-show 1: real time, headless, the audio clock as master. Serialized:
/// a fixture encoded (or a second player run) beside a real-time run steals its CPU.
@Suite(.serialized) struct RealTimeSyncTests {
    /// The A-V offset a 99th percentile may reach in real time: half a 60 Hz
    /// refresh (a 25 fps frame lands on the nearest vblank) plus 4 ms of
    /// wake-up latency on a busy 2-core machine (CI measured p99 10.3 ms,
    /// max 16.9 ms, once; 2.6-9.5 ms otherwise).
    static let offsetP99LimitMs = 1000.0 / 60 / 2 + 4

    @Test func tenSecondsAt25fpsPresentsInOrderInSyncWithAudio() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 10, fps: 25))
        let run = try Run([path], untimed: false)
        try await run.playToEnd(timeout: 60)

        let indexes = run.video.frames.compactMap(\.index)
        // 2 %: the 2-core CI machine stalls now and then for about 150 ms (a fresh-clone run:
        // 247 of 250, A-V max 154 ms, once; alone 250 of 250, max 14-17 ms, every time),
        // which costs 4 frames at 25 fps; more is the player's.
        #expect(indexes.count >= 245, "presented \(indexes.count) of 250")
        #expect(indexes == indexes.sorted(), "frames out of order")
        #expect(Set(indexes).count == indexes.count, "a frame was shown twice")
        let stats = run.player.stats.snapshot
        let p99 = try #require(stats.avOffsetP99Ms)
        print("real time, 10 s at 25 fps: \(indexes.count) frames, \(stats.framesDropped) dropped, A-V p50 "
              + "\(stats.avOffsetP50Ms ?? .nan) ms, p99 \(p99) ms, max \(stats.avOffsetMaxMs ?? .nan) ms")
        #expect(p99 <= Self.offsetP99LimitMs, "A-V offset p99 \(p99) ms")
        // Frames follow the audio clock: display times advance like the timeline.
        let frames = run.video.frames
        let span = (frames.last!.display - frames.first!.display).secondsDouble
        #expect(abs(span - 9.96) < 0.1, "10 s of video shown over \(span) s")
    }

    /// Issue 19, must-show 1: a JPEG, a PNG and a 2 s video looped twice in
    /// real time with sound: each picture up 2 s to within a frame of the
    /// video (40 ms), the video whole each pass, nothing dropped.
    @Test func picturesStayUpTheirDurationInRealTime() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-rt-stills-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["a.jpg", "b.png"] {
            let made = try Command.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                                  "testsrc2=size=320x240:rate=1", "-frames:v", "1", "\(folder)/\(name)"])
            guard made.status == 0 else { throw CommandError.failed("ffmpeg \(name)", made) }
        }
        let video = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run(["\(folder)/a.jpg", "\(folder)/b.png", video], untimed: false, loop: .playlist, passes: 2)
        run.player.items.forEach { $0.imageDuration = 2 }
        try await run.playToEnd(timeout: 40)

        let log = run.player.stats.presentationLog
        let firsts = log.indices.filter { $0 == 0 || log[$0 - 1].item != log[$0].item }.map { log[$0] }
        #expect(firsts.map(\.item) == [0, 1, 2, 0, 1, 2])
        for (first, next) in zip(firsts, firsts.dropFirst()) where first.item != 2 {
            let up = next.displayTime - first.displayTime
            print("picture \(first.item) up \(up) s")
            #expect(abs(up - 2) <= 0.04, "picture \(first.item) was up \(up) s")
        }
        #expect(log.filter { $0.item == 2 }.count == 100, "the video whole, both passes")
        #expect(run.player.stats.snapshot.framesDropped == 0)
    }

    /// Issue 19, fades in real time with sound: a picture, a 2 s video and
    /// the picture again through 1 s fades. Each picture is 1 held frame and
    /// 15 steps of 1/30 s, each step shown within a 60 Hz refresh of its
    /// time; every item still starts 2 s after the one before; nothing dropped.
    @Test func fadesKeepTheirTimesInRealTime() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-rt-fade-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let made = try Command.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                              "testsrc2=size=320x240:rate=1", "-frames:v", "1", "\(folder)/a.png"])
        guard made.status == 0 else { throw CommandError.failed("ffmpeg a.png", made) }
        let video = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run(["\(folder)/a.png", video, "\(folder)/a.png"], untimed: false,
                          transition: .fade(seconds: 1, rgb: 0x000000))
        run.player.items.forEach { $0.imageDuration = 2 }
        try await run.playToEnd(timeout: 40)

        let log = run.player.stats.presentationLog
        #expect([0, 1, 2].map { item in log.filter { $0.item == item }.count } == [16, 50, 16])
        let firsts = log.indices.filter { $0 == 0 || log[$0 - 1].item != log[$0].item }.map { log[$0] }
        for (first, next) in zip(firsts, firsts.dropFirst()) {
            #expect(abs(next.displayTime - first.displayTime - 2) <= 0.04, "item \(first.item) was up \(next.displayTime - first.displayTime) s")
        }
        let refresh = 1.0 / 60
        for item in [0, 2] {
            let frames = log.filter { $0.item == item }
            let steps = item == 0 ? Array(frames.dropFirst()) : Array(frames.dropLast())
            let intervals = zip(steps, steps.dropFirst()).map { $1.displayTime - $0.displayTime }
            #expect(intervals.allSatisfy { abs($0 - 1.0 / 30) <= refresh + 0.002 }, "picture \(item) steps: \(intervals)")
        }
        #expect(run.player.stats.snapshot.framesDropped == 0)
    }

    @Test func withoutAudioTheMonotonicClockPacesVideo() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: false, audio: false)
        try await run.playToEnd(timeout: 30)
        let frames = run.video.frames
        #expect(frames.count == 50)
        let span = (frames.last!.display - frames.first!.display).secondsDouble
        #expect(abs(span - 1.96) < 0.05, "2 s of video shown over \(span) s")
        #expect(run.player.stats.snapshot.avOffsetP99Ms == nil)
    }

    /// Issue 16, must-show 1 in real time: each shape of uneven streams
    /// looped 20 times on the host's clock, into a WAV paced by it.
    @Test(arguments: UnevenStreamsTests.shapes)
    func unevenStreamsLoopWithoutDropsAtSeams(_ shape: UnevenStreamsTests.Shape) async throws {
        let passes = UnevenStreamsTests.passes
        let run = try Run([try Fixtures.path(shape.recipe)], untimed: false, wav: true, loop: .item, passes: passes)
        try await run.playToEnd(timeout: Double(passes) * shape.passSeconds + 30)
        let stats = run.player.stats.snapshot
        let frames = passes * UnevenStreamsTests.fps
        let indexes = run.video.frames.compactMap(\.index)
        let repeats = zip(indexes.dropFirst(), indexes).filter { $0 == $1 }.count
        let p99 = try #require(stats.avOffsetP99Ms)
        print("real time, \(shape) x \(passes): \(indexes.count) of \(frames) frames, \(stats.framesDropped) dropped, "
              + "\(repeats) repeated, A-V p99 \(p99) ms, seam holds \(stats.seams.map { Int($0.longestHoldMs) })")
        #expect(Double(stats.framesDropped) < Double(frames) * 0.01, "\(shape): \(stats.framesDropped) of \(frames) dropped")
        #expect(repeats == 0, "\(shape): \(repeats) frames shown twice")
        #expect(stats.seams.count == passes - 1)
        #expect(stats.seams.allSatisfy { $0.framesDropped == 0 }, "\(shape): drops at seams \(stats.seams.map(\.framesDropped))")
        #expect(p99 <= Self.offsetP99LimitMs, "\(shape): A-V p99 \(p99) ms")
        // Only longer audio holds the last frame at a seam, for the difference.
        let held = (shape.passSeconds - 1) * 1000
        #expect(stats.seams.allSatisfy { abs($0.longestHoldMs - held) <= 2000 / 60.0 },
                "\(shape): seam holds \(stats.seams.map(\.longestHoldMs)) ms, expected \(held)")
        let samples = try wavSamples(try #require(run.audioPath)).count / 2
        let expected = Double(passes) * shape.passSeconds * Double(UnevenStreamsTests.rate)
        #expect(abs(Double(samples) - expected) <= 1024, "\(shape): \(samples) sample frames, expected \(Int(expected))")
    }
}
