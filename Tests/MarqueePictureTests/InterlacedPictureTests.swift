import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// Issue 15, interlaced video: a pattern with sharp vertical edges scrolling
/// sideways, 5.8 pixels a field, encoded as interlaced MPEG-2 top or bottom
/// field first. Woven, every edge combs; deinterlaced (auto, the default) no
/// line differs from its neighbours more than from the lines of its own
/// field; at field rate every field is a picture, in the order it was taken.
@Suite struct InterlacedPictureTests {
    enum Order: String, CaseIterable, CustomStringConvertible {
        case tff, bff
        var description: String { rawValue }
    }

    static let screen = (width: 720, height: 480)
    static let frameDuration = 1001.0 / 30000
    static let frames = 30

    static func recipe(_ order: Order) -> Fixtures.Recipe {
        // Matroska: its cues make seeks land where asked (an MPEG-TS seek can land a GOP late).
        Fixtures.Recipe(name: "interlaced-\(order)", fileExtension: "mkv", arguments: [
            "-f", "lavfi", "-i", "testsrc=size=720x480:rate=60000/1001:duration=1.1,scroll=horizontal=0.008",
            // Two fields of consecutive 59.94p pictures woven into each 29.97i frame, the first one on top (tff) or below.
            "-vf", "tinterlace=\(order == .tff ? "interleave_top" : "interleave_bottom"),setfield=\(order)",
            "-c:v", "mpeg2video", "-q:v", "2", "-flags", "+ilme+ildct", "-top", order == .tff ? "1" : "0",
            "-field_order", order == .tff ? "tt" : "bb", "-frames:v", "\(frames)",
        ])
    }

    /// The middle of frame 15, so which frame shows does not hang on rounding;
    /// three frames after a keyframe (MPEG-2's GOP is 12), so the player's
    /// bwdif, which starts there, has the frame before it as ffmpeg's has.
    static let seekTime = 15.5 * frameDuration

    @Test(arguments: Order.allCases)
    func deinterlacedPicturesDoNotCombAndWovenOnesDo(_ order: Order) async throws {
        let path = try Fixtures.path(Self.recipe(order))
        let whole = PixelRect(x: 0, y: 0, width: Self.screen.width, height: Self.screen.height)
        let woven = try await PictureCapture.paused(path, at: Self.seekTime, width: Self.screen.width, height: Self.screen.height,
                                                    deinterlacing: Deinterlacing(mode: .off))
        let shown = try await PictureCapture.paused(path, at: Self.seekTime, width: Self.screen.width, height: Self.screen.height)
        let wovenComb = PictureCapture.comb(PictureCapture.luma(woven.screen, screenWidth: Self.screen.width, rect: whole))
        let shownComb = PictureCapture.comb(PictureCapture.luma(shown.screen, screenWidth: Self.screen.width, rect: whole))
        print("\(order): comb \(wovenComb) woven (deinterlace off), \(shownComb) deinterlaced (auto)")
        // The metric can fail: with deinterlacing off the picture combs.
        #expect(wovenComb > 3, "\(order): deinterlace off should comb, metric \(wovenComb)")
        #expect(shownComb < 1, "\(order): deinterlaced picture combs, metric \(shownComb)")
        #expect(woven.picture?.contains("bwdif") == false, "\(woven.picture ?? "nothing")")
        #expect(shown.picture?.hasSuffix("limited BT.601 (guessed), bwdif frame") == true, "\(shown.picture ?? "nothing")")

        // The same frame as ffmpeg's bwdif renders it.
        let start = try await Asset(source: path).load(.mediaDescription).startTime.seconds
        let placed = PictureCapture.placed(width: 720, height: 480, sampleAspect: 1, screen: Self.screen, range: "tv", matrix: "bt601")
        let from = start + Self.seekTime - 0.75 * Self.frameDuration
        // bwdif before the selection, so it has the frames around the one shown, as the player's has.
        let right = try PictureCapture.ffmpeg(path, filters: ["bwdif=mode=send_frame:parity=auto", PictureCapture.select(from: from)] + placed)
        let wrong = try PictureCapture.ffmpeg(path, filters: [PictureCapture.select(from: from)] + placed)
        let toRight = PictureFidelityTests.psnr(shown.screen, right), toWrong = PictureFidelityTests.psnr(shown.screen, wrong)
        print("\(order): \(toRight) dB from ffmpeg's bwdif, \(toWrong) dB from the woven frame")
        #expect(toRight >= 35, "\(order): \(toRight) dB from ffmpeg's bwdif rendering")
        #expect(toRight - toWrong >= 6, "\(order): \(toRight) dB from ffmpeg's bwdif rendering, \(toWrong) dB from the woven one")
    }

    /// `deinterlace_rate = "field"`: twice the pictures of frame rate, each
    /// field's moment in turn, so the pattern moves on by the same step every
    /// picture. The step check fails on fields shown in the wrong order (ffmpeg's
    /// bwdif told the other parity: back one step, forward three).
    @Test(arguments: Order.allCases)
    func fieldRateShowsEveryFieldInTheOrderTaken(_ order: Order) async throws {
        let path = try Fixtures.path(Self.recipe(order))
        let perFrame = try await Self.writePictures(path, rate: .frame)
        let perField = try await Self.writePictures(path, rate: .field)
        defer {
            try? FileManager.default.removeItem(atPath: perFrame.directory)
            try? FileManager.default.removeItem(atPath: perField.directory)
        }
        #expect(perFrame.count == Self.frames, "\(order): \(perFrame.count) pictures at frame rate")
        #expect(perField.count == 2 * Self.frames, "\(order): \(perField.count) pictures at field rate")
        #expect(perField.picture?.hasSuffix("bwdif field") == true, "\(perField.picture ?? "nothing")")
        // Each field shown at its own moment, half a frame after the one before.
        let steps = zip(perField.times, perField.times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - Self.frameDuration / 2) < 0.001 }, "\(order): times between pictures \(steps)")

        let shown = try Self.grey(pngs: perField.directory, first: 21, count: 6)
        let moves = zip(shown, shown.dropFirst()).map { Self.step(from: $0, to: $1) }
        print("\(order): the pattern moves \(moves) pixels picture to picture")
        #expect(moves.allSatisfy { (4...8).contains($0) }, "\(order): moves \(moves)")
        let otherParity = order == .tff ? "bff" : "tff"
        let misordered = try (0..<6).map { index in
            try PictureCapture.ffmpeg(path, filters: ["bwdif=mode=send_field:parity=\(otherParity)", "select=eq(n\\,\(20 + index))"])
        }.map { Self.rows(of: $0) }
        let wrongMoves = zip(misordered, misordered.dropFirst()).map { Self.step(from: $0, to: $1) }
        #expect(!wrongMoves.allSatisfy { (4...8).contains($0) }, "\(order): fields out of order pass the step check: \(wrongMoves)")
    }

    /// Plays `path` untimed into PNG files, deinterlaced at `rate`.
    static func writePictures(_ path: String, rate: Deinterlacing.Rate) async throws
        -> (directory: String, count: Int, picture: String?, times: [Double]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fields-\(UUID().uuidString)")
        let clock = VirtualClock()
        var configuration = PlayerConfiguration(videoOutput: try FileVideoOutput(path: directory.path, clock: clock), audioOutput: nil,
                                                hostClock: clock, untimed: true, hardwareDecoding: .software)
        configuration.deinterlacing = Deinterlacing(mode: .auto, rate: rate)
        configuration.keepsPresentationLog = true
        let player = QueuePlayer(items: [PlayerItem(source: path)], configuration: configuration)
        let events = player.events()
        player.play()
        for await event in events { if case .playbackFinished = event { break } }
        player.stop()
        let count = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }.count
        return (directory.path, count, player.stats.snapshot.picture, player.stats.presentationLog.map(\.pts))
    }

    /// Grey rows of `count` PNGs from frame-NNNNNN.png number `first` on.
    static func grey(pngs directory: String, first: Int, count: Int) throws -> [[[Double]]] {
        try (first..<first + count).map { number in
            let name = "\(directory)/frame-\(String(repeating: "0", count: 6 - String(number).count))\(number).png"
            return rows(of: try PictureCapture.ffmpeg(name, filters: []))
        }
    }

    static func rows(of rgb: [UInt8]) -> [[Double]] {
        PictureCapture.luma(rgb, screenWidth: screen.width, rect: PixelRect(x: 0, y: 0, width: screen.width, height: screen.height))
    }

    /// How many pixels the picture moved sideways from `a` to `b`: the shift
    /// (within 12) that best lines up the middle rows.
    static func step(from a: [[Double]], to b: [[Double]]) -> Int {
        let reach = 12
        var best = (difference: Double.infinity, shift: 0)
        for shift in -reach...reach {
            var difference = 0.0
            for y in stride(from: 100, to: 380, by: 2) {
                for x in reach..<(a[y].count - reach) { difference += abs(a[y][x + shift] - b[y][x]) }
            }
            if difference < best.difference { best = (difference, shift) }
        }
        return best.shift
    }
}
