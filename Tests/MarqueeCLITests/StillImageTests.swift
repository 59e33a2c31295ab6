import Foundation
import MarqueeTestSupport
import Testing

/// Issue 19, first part: still pictures are items that stay up for their
/// duration. Untimed, so the durations are exact on the virtual clock.
@Suite(.serialized) struct StillImageTests {
    /// A JPEG, a PNG, a BMP and a WebP made by ffmpeg, in a folder of their own.
    static func pictures() throws -> String {
        let folder = Fixtures.directory.appendingPathComponent("stills-v1").path
        if FileManager.default.fileExists(atPath: "\(folder)/d.webp") { return folder }
        let partial = folder + "-partial"
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
        for (name, size) in [("a.jpg", "320x240"), ("b.png", "200x120"), ("c.bmp", "160x90"), ("d.webp", "256x144")] {
            let result = try Command.run("ffmpeg", ["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                                    "testsrc2=size=\(size):rate=1", "-frames:v", "1", "\(partial)/\(name)"])
            guard result.status == 0 else { throw CommandError.failed("ffmpeg \(name)", result) }
        }
        try FileManager.default.moveItem(atPath: partial, toPath: folder)
        return folder
    }

    /// Pictures and a video in one playlist, looped twice: each picture is
    /// one frame that stays up 2 s (the next item starts 2 s after it), the
    /// video plays whole, and every item counts an end each pass.
    @Test func picturesStayUpForTheirDurationBetweenVideos() throws {
        let folder = try Self.pictures()
        let video = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-stills-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let inputs = ["a.jpg", "b.png", "c.bmp", "d.webp"].map { "\(folder)/\($0)" } + [video]
        let result = try MarqueeExecutable.run(["play"] + inputs + ["--image-duration", "2", "--loop", "playlist", "--loops", "2",
                                                                    "--untimed", "--video-out", "null", "--audio-out", "null",
                                                                    "--stats", "\(work)/stats.json",
                                                                    "--presentation-log", "\(work)/presented.jsonl"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let frames = try PresentedFrame.read("\(work)/presented.jsonl")
        // Items in play order: 0-3 the pictures, 4 the video; a loop pass plays them again.
        let firsts = zip(frames.indices, frames).filter { $0.0 == 0 || frames[$0.0 - 1].item != $0.1.item }.map(\.1)
        #expect(firsts.map(\.item) == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        for (index, first) in firsts.enumerated().dropLast() {
            let next = firsts[index + 1]
            // Each picture 2 s, and the video is 2 s long.
            #expect(abs(next.display - first.display - 2) < 0.041,
                    "item \(first.item) was up \(next.display - first.display) s")
        }
        for picture in 0..<4 {
            #expect(frames.filter { $0.item == picture }.count == 2, "picture \(picture): one frame a pass")
        }
        #expect(frames.filter { $0.item == 4 }.count == 100, "the video whole, both passes")
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(work)/stats.json"))) as? [String: Any]
        #expect(stats?["endNotifications"] as? Int == 10)
        #expect(stats?["framesDropped"] as? Int == 0)
    }

    /// Per-entry durations from the configuration's playlist: a folder's
    /// pictures each 0.5 s, a file 1 s, a plain entry `image_duration`.
    @Test func playlistTablesGiveTheirPicturesTheirOwnDuration() throws {
        let folder = try Self.pictures()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-durations-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try """
            [playback]
            image_duration = 1.5
            playlist = [{ path = "\(folder)", duration = 0.5 }, { path = "\(folder)/b.png", duration = 1 }, "\(folder)/a.jpg"]
            """.write(toFile: "\(work)/marquee.toml", atomically: true, encoding: .utf8)
        let result = try MarqueeExecutable.run(["play", "--config", "\(work)/marquee.toml", "--untimed", "--video-out", "null",
                                                "--audio-out", "null", "--presentation-log", "\(work)/presented.jsonl"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let frames = try PresentedFrame.read("\(work)/presented.jsonl")
        #expect(frames.map(\.item) == Array(0..<6), "one frame per picture")
        let upFor = zip(frames, frames.dropFirst()).map { $1.display - $0.display }
        #expect(upFor.count == 5 && zip(upFor, [0.5, 0.5, 0.5, 0.5, 1]).allSatisfy { abs($0 - $1) < 0.041 }, "\(upFor)")
    }

    /// Pictures that do not decode (a text file named .jpg, an empty .png,
    /// a JPEG cut off inside its headers, an animated WebP, which Debian
    /// 12's libavcodec cannot decode): one line each naming the file (the
    /// WebP's saying why), and the good picture after them is shown.
    @Test func aPictureThatDoesNotDecodeIsOneLineAndTheShowGoesOn() throws {
        let folder = try Self.pictures()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-bad-stills-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try "this is not a picture\n".write(toFile: "\(work)/text.jpg", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: "\(work)/empty.png", contents: Data())
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/a.jpg"))
        try jpeg.prefix(200).write(to: URL(fileURLWithPath: "\(work)/cut.jpg"))
        let animated = try Command.run("ffmpeg", ["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                                  "testsrc2=size=160x120:rate=10:duration=1", "-loop", "0", "-c:v", "libwebp_anim",
                                                  "\(work)/animated.webp"])
        #expect(animated.status == 0, "\(animated.stderr)")
        let bad = ["text.jpg", "empty.png", "cut.jpg", "animated.webp"].map { "\(work)/\($0)" }
        let result = try MarqueeExecutable.run(["play"] + bad + ["\(folder)/b.png", "--image-duration", "1", "--untimed",
                                                                 "--video-out", "null", "--audio-out", "null",
                                                                 "--stats", "\(work)/stats.json"])
        print(result.stderr)
        let lines = result.stderr.split(separator: "\n")
        for path in bad {
            #expect(lines.filter { $0.hasPrefix("marquee: \(path):") }.count == 1, "\(path): \(lines)")
        }
        #expect(lines.count == bad.count, "one line each: \(lines)")
        #expect(lines.contains { $0.contains("animated.webp: a WebP libavcodec cannot read: damaged, or animated") }, "\(lines)")
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(work)/stats.json"))) as? [String: Any]
        #expect(stats?["framesPresented"] as? Int == 1, "the good picture after them")
    }

    /// `--image-duration` out of range is a usage error; `[playback]
    /// image_duration` holds a picture between two videos up that long,
    /// and the sound has silence as long between theirs (no gap, no overlap).
    @Test func aPictureHasTheDurationItIsShownFor() throws {
        let folder = try Self.pictures()
        let bad = try MarqueeExecutable.run(["play", "\(folder)/a.jpg", "--image-duration", "0", "--video-out", "null"])
        #expect(bad.status != 0 && bad.stderr.contains("--image-duration must be seconds from 0.04 to 86400"), "\(bad.stderr)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-still-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try "[playback]\nimage_duration = 3.5\n".write(toFile: "\(work)/marquee.toml", atomically: true, encoding: .utf8)
        let video = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let played = try MarqueeExecutable.run(["play", video, "\(folder)/b.png", video, "--config", "\(work)/marquee.toml", "--untimed",
                                                "--video-out", "null", "--audio-out", "wav:\(work)/sound.wav"])
        #expect(played.status == 0, "\(played.stderr)")
        // 2 + 3.5 + 2 s at 48 kHz, 16-bit stereo, after a 44-byte header.
        let bytes = (try? FileManager.default.attributesOfItem(atPath: "\(work)/sound.wav")[.size] as? Int) ?? 0
        #expect(abs((bytes - 44) / 4 - 360_000) <= 1_024, "\(bytes) bytes of sound for 2 s, a picture shown 3.5 s, and 2 s")
    }
}
