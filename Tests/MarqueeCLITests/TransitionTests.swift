import Foundation
import MarqueeTestSupport
import Testing

/// Issue 19, transitions: `--transition fade` takes the picture down to the
/// background colour (black) over the outgoing item's end and up from it
/// over the next one's start, with no time added; `cut` is as before. Read
/// from what the player wrote: the mean luma of every y4m picture (limited
/// range, so black is 16), untimed so each frame is written once.
@Suite(.serialized) struct TransitionTests {
    /// Mean luma of the constant-colour clips in the y4m stream, and of black.
    static let (white, grey, black) = (235.0, 126.0, 16.0)

    /// A white picture as a 4:4:4 JPEG: a layout the fade converts before it blends.
    static let whitePicture = Fixtures.Recipe(name: "plain-white-444", fileExtension: "jpg", arguments: [
        "-f", "lavfi", "-i", "color=c=white:size=320x240", "-frames:v", "1", "-pix_fmt", "yuvj444p",
    ])

    struct Played {
        /// Mean luma of each presented picture, in order.
        let brightness: [Double]
        /// The item (play order) of each.
        let items: [Int]
        let stats: [String: Any]

        var seamGaps: [Double] { (stats["seams"] as? [[String: Any]] ?? []).compactMap { $0["gapMs"] as? Double } }
    }

    func play(_ inputs: [String], _ options: [String]) throws -> Played {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-fade-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try MarqueeExecutable.run(["play"] + inputs + options + [
            "--untimed", "--video-out", "file:\(work)/out.y4m", "--audio-out", "null",
            "--stats", "\(work)/stats.json", "--presentation-log", "\(work)/presented.jsonl",
        ], timeout: 120)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(work)/stats.json"))) as? [String: Any]
        return Played(brightness: try Self.meanLuma(y4m: "\(work)/out.y4m"),
                      items: try PresentedFrame.read("\(work)/presented.jsonl").map(\.item), stats: stats ?? [:])
    }

    /// The mean of each picture's Y plane in a YUV4MPEG2 4:2:0 stream.
    static func meanLuma(y4m path: String) throws -> [Double] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let headerEnd = try #require(data.firstIndex(of: UInt8(ascii: "\n")))
        let fields = String(decoding: data[..<headerEnd], as: UTF8.self).split(separator: " ")
        let width = try #require(fields.first { $0.hasPrefix("W") }.flatMap { Int($0.dropFirst()) })
        let height = try #require(fields.first { $0.hasPrefix("H") }.flatMap { Int($0.dropFirst()) })
        let frameHeader = "FRAME\n".utf8.count, lumaSize = width * height
        let frameSize = frameHeader + lumaSize + 2 * ((width + 1) / 2) * ((height + 1) / 2)
        var means: [Double] = []
        var offset = headerEnd + 1
        while offset + frameSize <= data.count {
            let luma = data[(offset + frameHeader)..<(offset + frameHeader + lumaSize)]
            means.append(Double(luma.reduce(0) { $0 + Int($1) }) / Double(lumaSize))
            offset += frameSize
        }
        return means
    }

    /// Whether `values` fall (never rise by more than `slack`) to their
    /// lowest and then rise (never fall by more than `slack`).
    static func fallsThenRises(_ values: some Collection<Double>, slack: Double = 0) -> Bool {
        let values = Array(values)
        guard let low = values.indices.min(by: { values[$0] < values[$1] }) else { return false }
        let falling = zip(values[..<low], values[..<low].dropFirst() + [values[low]]).allSatisfy { $1 <= $0 + slack }
        let rising = zip(values[low...], values[low...].dropFirst()).allSatisfy { $1 >= $0 - slack }
        return falling && rising
    }

    /// Must-show: a 1 s fade between two clips of one colour each. The
    /// brightness falls monotonically from white to black over the last
    /// 0.5 s of the first and rises monotonically to grey over the first
    /// 0.5 s of the second; every frame of both is shown once, no seam gap.
    @Test func aOneSecondFadeFallsToTheBackgroundAndRisesMonotonically() throws {
        let played = try play([try Fixtures.path(Fixtures.plain("white")), try Fixtures.path(Fixtures.plain("0x808080"))],
                              ["--transition", "fade", "--transition-ms", "1000"])
        let light = played.brightness
        #expect(light.count == 100, "\(light.count) pictures: a fade adds no time")
        #expect(played.stats["framesPresented"] as? Int == 100)
        guard light.count == 100 else { return }
        #expect(Self.fallsThenRises(light), "\(light.map { Int($0) })")
        #expect(light.min() ?? 0 <= Self.black + 0.5, "the fade reaches the background")
        // 0.5 s each way is 12.5 frames at 25 fps: the frames that are not the clips' own colour.
        let fadingOut = light[..<50].filter { $0 < Self.white - 0.5 }.count
        let fadingIn = light[50...].filter { $0 < Self.grey - 0.5 }.count
        #expect((12...13).contains(fadingOut) && (12...13).contains(fadingIn), "fade out \(fadingOut), in \(fadingIn) frames")
        #expect(abs(light[0] - Self.white) < 0.5 && abs(light[99] - Self.grey) < 0.5)
        #expect(played.seamGaps.count == 1 && played.seamGaps.allSatisfy { $0 < 0.001 }, "seam gaps \(played.seamGaps) ms")
    }

    /// `cut`, the default: no picture darker than the clips, 0 ms seams.
    @Test func aCutKeepsZeroMillisecondSeams() throws {
        let played = try play([try Fixtures.path(Fixtures.plain("white")), try Fixtures.path(Fixtures.plain("0x808080"))],
                              ["--loop", "playlist", "--loops", "2", "--transition-ms", "1000"])
        #expect(played.brightness.count == 200)
        #expect(played.brightness.allSatisfy { abs($0 - Self.white) < 0.5 || abs($0 - Self.grey) < 0.5 })
        #expect(played.seamGaps.count == 3 && played.seamGaps.allSatisfy { $0 == 0 }, "seam gaps \(played.seamGaps) ms")
    }

    /// With a pause between items the fade goes down into it and up out of
    /// it: the pause's one picture of the colour sits between the two fades.
    @Test func aFadeGoesDownIntoAPauseAndUpOutOfIt() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-fade-\(UUID().uuidString).toml").path
        try "[playback]\nbetween_items = \"black\"\nbetween_items_ms = 500\ntransition = \"fade\"\ntransition_ms = 1000\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let played = try play([try Fixtures.path(Fixtures.plain("white")), try Fixtures.path(Fixtures.plain("0x808080"))], ["--config", config])
        let light = played.brightness
        #expect(light.count == 101, "both clips and the pause's picture: \(light.count)")
        guard light.count == 101 else { return }
        #expect(Self.fallsThenRises(light), "\(light.map { Int($0) })")
        #expect(light[49...51].allSatisfy { abs($0 - Self.black) < 0.5 }, "the last frame, the pause, the first frame: \(light[49...51])")
        #expect(abs(light[0] - Self.white) < 0.5 && abs(light[100] - Self.grey) < 0.5)
    }

    /// A picture is held as one frame; it fades in steps (30 a second) only
    /// over its first or last half second, then it is held again.
    @Test func aStillPictureFadesInStepsAroundAVideo() throws {
        let picture = try Fixtures.path(Self.whitePicture)
        let played = try play([picture, try Fixtures.path(Fixtures.plain("0x808080")), picture],
                              ["--image-duration", "2", "--transition", "fade", "--transition-ms", "1000"])
        let perItem = (0..<3).map { item in played.items.filter { $0 == item }.count }
        #expect(perItem == [16, 50, 16], "one held frame and 15 steps each picture: \(perItem)")
        guard played.brightness.count == played.items.count else {
            Issue.record("\(played.brightness.count) pictures, \(played.items.count) logged")
            return
        }
        let light = played.brightness
        let firstSeam = perItem[0], secondSeam = perItem[0] + perItem[1]
        #expect(Self.fallsThenRises(light[..<(secondSeam - 25)]), "picture to video: \(light[..<(secondSeam - 25)].map { Int($0) })")
        #expect(Self.fallsThenRises(light[(firstSeam + 25)...]), "video to picture: \(light[(firstSeam + 25)...].map { Int($0) })")
        // The full-range picture is written in the y4m's limited range: its black is 16, its white 235.
        #expect(abs((light[..<firstSeam].min() ?? 255) - Self.black) < 0.5 && abs((light[secondSeam...].min() ?? 255) - Self.black) < 0.5)
        #expect(abs(light[0] - Self.white) < 0.5 && light[light.count - 1] == light[0], "held at full brightness: \(light[0])")
        #expect(played.seamGaps.count == 2 && played.seamGaps.allSatisfy { $0 < 0.001 }, "seam gaps \(played.seamGaps) ms")
    }

    /// Real files: the last 1.5 s of interlaced 480i with a 32:27 pixel
    /// aspect (deinterlaced, the y4m's size), then a full-range JPEG turned
    /// by EXIF, scaled into it. The video goes down as itself times a
    /// falling fraction: each frame's brightness above black, over that of
    /// the same frame played with a cut, never rises; the picture steps up.
    @Test func realFilesFadeWithoutAHitch() throws {
        let media = SharedMedia.directory
        let inputs = ["\(media)/interlace/bt601-525_480_interlaced_tff.mkv", "\(media)/exif/Landscape_6.jpg"]
        let options = ["--start", "8.5", "--image-duration", "1"]
        let faded = try play(inputs, options + ["--transition", "fade", "--transition-ms", "1000"])
        let cut = try play(inputs, options)
        let seam = faded.items.firstIndex(of: 1) ?? 0
        #expect(faded.brightness.count - seam == 16, "the picture: 15 steps and one held frame")
        let video = Array(faded.brightness[..<seam]), reference = Array(cut.brightness.dropLast())
        #expect(video.count == reference.count && video.count > 30, "\(video.count) frames faded, \(reference.count) cut")
        guard video.count == reference.count, video.count > 30 else { return }
        // 0.5 s at 29.97 frames a second: the last 15 frames go down, the ones before are as they are.
        let fading = video.count - 15
        #expect(zip(video[..<fading], reference[..<fading]).allSatisfy { $0 == $1 }, "before the fade the video is untouched")
        let fractions = (fading..<video.count).map { (video[$0] - Self.black) / (reference[$0] - Self.black) }
        #expect(fractions.last ?? 1 < 0.02 && zip(fractions, fractions.dropFirst()).allSatisfy { $1 <= $0 + 0.005 }, "\(fractions)")
        let steps = faded.brightness[seam...]
        #expect(abs((steps.first ?? 255) - Self.black) < 0.5 && zip(steps, steps.dropFirst()).allSatisfy { $1 >= $0 }, "\(steps.map { Int($0) })")
        // The file's own seam (its container outlasts the video by a millisecond) is kept as it was.
        #expect(faded.seamGaps.count == 1 && zip(faded.seamGaps, cut.seamGaps).allSatisfy { abs($0 - $1) < 0.001 },
                "seam gaps \(faded.seamGaps) ms, cut \(cut.seamGaps) ms")
        #expect(faded.stats["framesDropped"] as? Int == 0)
    }

    @Test func badTransitionOptionsAreUsageErrors() throws {
        for options in [["--transition", "wipe"], ["--transition-ms", "20000"], ["--transition", "fade", "--transition-ms", "0"]] {
            let result = try MarqueeExecutable.run(["play", "x.mp4"] + options)
            #expect(result.status == 2 && result.stderr.contains("transition"), "\(options): \(result.stderr)")
        }
    }
}
