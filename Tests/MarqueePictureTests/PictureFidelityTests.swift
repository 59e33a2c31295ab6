import Foundation
import Marquee
import MarqueeKMS
import MarqueeTestSupport
import Synchronization
import Testing

/// Issue 15, must-show 1: every picture as its file means it. Each fixture
/// plays through a real player onto a `MemoryDisplay` (the composer and
/// converter a KMS plane is filled by) and the composed screen is compared
/// with ffmpeg's rendering of the same picture under explicit parameters:
/// at least 35 dB from the right interpretation, and at least 6 dB further
/// from the wrong one, so each check can fail.
@Suite struct PictureFidelityTests {
    static let screen = (width: 640, height: 400)

    /// How a fixture is made and what it means.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var size = "320x240"
        /// Pixel aspect written into the H.264 VUI only (the container says nothing).
        var sar: (Int, Int)? = nil
        /// "tv" (limited) or "pc" (full).
        var range = "tv"
        /// ffmpeg's matrix name, nil for untagged.
        var matrix: String? = "bt709"
        /// Display orientation SEI: anticlockwise degrees and a horizontal flip.
        var sei: (anticlockwise: Int, flip: Bool)? = nil
        /// What ffmpeg is told for the wrong rendering.
        var wrong: Interpretation

        var description: String { name }

        var recipe: Fixtures.Recipe {
            let tagged = matrix ?? (isHD ? "bt709" : "bt601")
            var bsf: [String] = []
            if let sar { bsf.append("sample_aspect_ratio=\(sar.0)/\(sar.1)") }
            if let sei { bsf.append("display_orientation=insert:rotate=\(sei.anticlockwise)" + (sei.flip ? ":flip=horizontal" : "")) }
            var arguments = ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=1:duration=1,fps=25",
                             "-vf", "scale=out_color_matrix=\(tagged):out_range=\(range),format=yuv420p",
                             "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-frames:v", "5", "-color_range", range]
            if let matrix { arguments += ["-colorspace", matrix == "bt601" ? "smpte170m" : matrix] }
            if !bsf.isEmpty { arguments += ["-bsf:v", "h264_metadata=" + bsf.joined(separator: ":")] }
            return Fixtures.Recipe(name: "fidelity-\(name)", fileExtension: "mp4", arguments: arguments)
        }

        var isHD: Bool {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            return parts[0] > 1024 || parts[1] > 576
        }

        var right: Interpretation {
            Interpretation(range: range, matrix: matrix ?? (isHD ? "bt709" : "bt601"),
                           sar: sar.map { Double($0.0) / Double($0.1) } ?? 1, sei: sei)
        }
    }

    /// How to read a fixture's picture, as ffmpeg filter parameters.
    struct Interpretation: Sendable {
        var range: String
        var matrix: String
        var sar: Double
        var sei: (anticlockwise: Int, flip: Bool)?

        /// The H.264 display orientation SEI's meaning: flip, then turn anticlockwise.
        var filters: [String] {
            var chain: [String] = []
            if sei?.flip == true { chain.append("hflip") }
            switch ((sei?.anticlockwise ?? 0) % 360 + 360) % 360 {
            case 90: chain.append("transpose=cclock")
            case 180: chain += ["hflip", "vflip"]
            case 270: chain.append("transpose=clock")
            default: break
            }
            return chain
        }

        var swapsAxes: Bool { [90, 270].contains(((sei?.anticlockwise ?? 0) % 360 + 360) % 360) }
    }

    static let sarCases: [Case] = [(8, 9), (32, 27), (4, 3), (2, 1)].map { sar in
        Case(name: "sar-\(sar.0)-\(sar.1)", sar: sar, wrong: Interpretation(range: "tv", matrix: "bt709", sar: 1))
    }

    static let orientationCases: [Case] = [false, true].flatMap { flip in
        [0, 90, 180, 270].compactMap { angle -> Case? in
            guard flip || angle != 0 else { return nil }
            // Wrong: the flip ignored (mirrored ones), or the orientation ignored.
            let wrong = flip ? (anticlockwise: angle, flip: false) : (anticlockwise: 0, flip: false)
            return Case(name: "sei-\(angle)\(flip ? "-flip" : "")", sei: (angle, flip),
                        wrong: Interpretation(range: "tv", matrix: "bt709", sar: 1, sei: wrong))
        }
    }

    static let colourCases: [Case] = [
        Case(name: "full-bt601", range: "pc", matrix: "bt601", wrong: Interpretation(range: "tv", matrix: "bt601", sar: 1)),
        Case(name: "full-bt709", range: "pc", matrix: "bt709", wrong: Interpretation(range: "tv", matrix: "bt709", sar: 1)),
        Case(name: "limited-bt601-sd", matrix: "bt601", wrong: Interpretation(range: "tv", matrix: "bt709", sar: 1)),
        Case(name: "limited-bt709-sd", matrix: "bt709", wrong: Interpretation(range: "tv", matrix: "bt601", sar: 1)),
        Case(name: "untagged-sd", matrix: nil, wrong: Interpretation(range: "tv", matrix: "bt709", sar: 1)),
        Case(name: "untagged-hd", size: "1280x720", matrix: nil, wrong: Interpretation(range: "tv", matrix: "bt601", sar: 1)),
        Case(name: "limited-bt601-hd", size: "1280x720", matrix: "bt601", wrong: Interpretation(range: "tv", matrix: "bt709", sar: 1)),
    ]

    @Test(arguments: sarCases + orientationCases + colourCases)
    func eachPictureIsShownAsItsFileMeansIt(_ test: Case) async throws {
        let path = try Fixtures.path(test.recipe)
        let (shown, picture) = try await Self.compose(path)
        // The stats (and the control status) say what was applied.
        let reading = test.right
        let orientation = Orientation(rotation: 360 - (reading.sei?.anticlockwise ?? 0), mirrored: reading.sei?.flip ?? false)
        let matrixName = ["bt601": "BT.601", "bt709": "BT.709"][reading.matrix]!
        let expected = [abs(reading.sar - 1) > 0.001 ? "pixel aspect \((reading.sar * 1000).rounded() / 1000)" : nil,
                        orientation.description,
                        "\(reading.range == "pc" ? "full" : "limited") \(matrixName)\(test.matrix == nil ? " (guessed)" : "")"]
        #expect(picture?.hasSuffix(expected.compactMap { $0 }.joined(separator: ", ")) == true, "\(test): stats say \(picture ?? "nothing")")
        let right = try Self.reference(path, test, test.right)
        let wrong = try Self.reference(path, test, test.wrong)
        let toRight = Self.psnr(shown, right), toWrong = Self.psnr(shown, wrong)
        #expect(toRight >= 35, "\(test): \(toRight) dB from the right rendering")
        #expect(toRight - toWrong >= 6, "\(test): \(toRight) dB from the right rendering, \(toWrong) dB from the wrong one")
        if toRight < 35 || toRight - toWrong < 6 {
            // The three pictures, to look at.
            for (suffix, pixels) in [("shown", shown), ("right", right), ("wrong", wrong)] {
                let header = Array("P6\n\(Self.screen.width) \(Self.screen.height)\n255\n".utf8)
                try? Data(header + pixels).write(to: Self.failures.appendingPathComponent("\(test.name)-\(suffix).ppm"))
            }
        }
    }

    /// Where a failing case leaves its pictures.
    static let failures: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-fidelity")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Plays `path` untimed onto a memory screen; the screen after its last
    /// frame, and what the stats say was applied to the picture.
    static func compose(_ path: String, imageDuration: Double = 10) async throws -> (screen: [UInt8], picture: String?) {
        let clock = VirtualClock()
        let display = MemoryDisplay(width: screen.width, height: screen.height, clock: clock)
        var configuration = PlayerConfiguration(videoOutput: display, audioOutput: nil, hostClock: clock, untimed: true,
                                                hardwareDecoding: .software)
        configuration.imageDuration = imageDuration
        let player = QueuePlayer(items: [PlayerItem(source: path)], configuration: configuration)
        let events = player.events()
        player.play()
        for await event in events {
            if case .playbackFinished = event { break }
            if case .itemStatusChanged(_, .failed) = event { Issue.record("\(path) failed to play") }
        }
        player.stop()
        return (display.screen(), player.stats.snapshot.picture)
    }

    /// ffmpeg's rendering of the fixture's first picture read as `reading`
    /// says, placed on the screen as `Placement.fit` places it.
    static func reference(_ path: String, _ test: Case, _ reading: Interpretation) throws -> [UInt8] {
        let size = test.size.split(separator: "x").compactMap { Int($0) }
        let (width, height) = reading.swapsAxes ? (size[1], size[0]) : (size[0], size[1])
        let aspect = reading.swapsAxes ? 1 / reading.sar : reading.sar
        let place = Placement.fit(width: width, height: height, sampleAspect: aspect, screenWidth: screen.width,
                                  screenHeight: screen.height, gravity: .resizeAspect).destination
        // One scale from YUV to RGB at the size on screen (before the turn), as the converter does.
        let (scaledWidth, scaledHeight) = reading.swapsAxes ? (place.height, place.width) : (place.width, place.height)
        let chain = ["scale=\(scaledWidth):\(scaledHeight):in_range=\(reading.range):in_color_matrix=\(reading.matrix)"
                     + ":out_range=pc:flags=bilinear,format=rgb24"]
            + reading.filters
            + ["pad=\(screen.width):\(screen.height):\(place.x):\(place.y):black"]
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("reference-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Command.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-noautorotate", "-i", path,
                                                "-vf", chain.joined(separator: ","), "-frames:v", "1",
                                                "-f", "rawvideo", "-pix_fmt", "rgb24", output.path], timeout: 60)
        guard result.status == 0 else { throw CommandError.failed("ffmpeg reference \(test)", result) }
        return Array(try Data(contentsOf: output))
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sum = 0.0
        for index in 0..<a.count {
            let d = Double(a[index]) - Double(b[index])
            sum += d * d
        }
        let mse = sum / Double(a.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }
}

/// The file output writes pictures at their displayed size: stretched by
/// the pixel aspect and turned by the orientation, as ffmpeg renders them.
@Suite struct DisplayedFileTests {
    typealias Fidelity = PictureFidelityTests

    @Test(arguments: [Fidelity.sarCases[3], Fidelity.sarCases[0], Fidelity.orientationCases[6], Fidelity.colourCases[0]])
    func pngFramesAreThePictureAsDisplayed(_ test: Fidelity.Case) async throws {
        let path = try Fixtures.path(test.recipe)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("displayed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = VirtualClock()
        let output = try FileVideoOutput(path: directory.path, clock: clock)
        let player = QueuePlayer(items: [PlayerItem(source: path)],
                                 configuration: PlayerConfiguration(videoOutput: output, audioOutput: nil, hostClock: clock,
                                                                    untimed: true, hardwareDecoding: .software))
        let events = player.events()
        player.play()
        for await event in events { if case .playbackFinished = event { break } }
        player.stop()
        let png = directory.appendingPathComponent("frame-000001.png").path
        let size = test.size.split(separator: "x").compactMap { Int($0) }
        let right = test.right
        let stretched = max(2, Int((Double(size[0]) * right.sar / 2).rounded()) * 2)
        let (width, height) = right.swapsAxes ? (size[1], stretched) : (stretched, size[1])
        let probe = try Command.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", png])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(width),\(height)", "\(test)")
        // Its pixels against ffmpeg's rendering at that size.
        let chain = ["scale=\(stretched):\(size[1]):in_range=\(right.range):in_color_matrix=\(right.matrix):out_range=pc:flags=bilinear",
                     "format=rgb24"] + right.filters
        let shown = try Self.rgb(png, filters: ["format=rgb24"])
        let expected = try Self.rgb(path, filters: chain)
        #expect(Fidelity.psnr(shown, expected) >= 35, "\(test): \(Fidelity.psnr(shown, expected)) dB")
    }

    static func rgb(_ input: String, filters: [String]) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rgb-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Command.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-noautorotate", "-i", input,
                                                "-vf", filters.joined(separator: ","), "-frames:v", "1",
                                                "-f", "rawvideo", "-pix_fmt", "rgb24", output.path], timeout: 60)
        guard result.status == 0 else { throw CommandError.failed("ffmpeg \(input)", result) }
        return Array(try Data(contentsOf: output))
    }
}

/// Issue 15, must-show 3 (the rotated and colour-tagged files made by
/// others): the first picture, shown paused on the memory screen, against
/// ffmpeg's own rendering of it (ffmpeg turns it by the display matrix
/// itself), colour read as the stream is tagged.
@Suite struct RealFilePictureTests {
    typealias Fidelity = PictureFidelityTests

    @Test(arguments: ["androidx/internal_emulator_transformer_output_270_rotated.mp4", "mediabunny/rotate-buck-bunny.mp4",
                      "androidx/bt601.mov", "androidx/sample_with_htc_rotation_track_name.mkv"])
    func theFirstPictureMatchesFFmpeg(_ file: String) async throws {
        let path = "\(SharedMedia.directory)/\(file)"
        let clock = VirtualClock()
        let display = MemoryDisplay(width: Fidelity.screen.width, height: Fidelity.screen.height, clock: clock)
        let player = QueuePlayer(items: [PlayerItem(source: path)],
                                 configuration: PlayerConfiguration(videoOutput: display, audioOutput: nil, hostClock: clock,
                                                                    untimed: true, hardwareDecoding: .software))
        #expect(await player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero), "\(file): the paused seek did not show a frame")
        let shown = display.screen()
        let tracks = try await Asset(source: path).load(.tracks)
        let track = try #require(tracks.first(where: { $0.mediaType == .video })?.video)
        player.stop()

        let (width, height) = track.orientation.swapsAxes ? (track.height, track.width) : (track.width, track.height)
        let sar = track.sampleAspectRatio?.doubleValue ?? 1
        let place = Placement.fit(width: width, height: height, sampleAspect: track.orientation.swapsAxes ? 1 / sar : sar,
                                  screenWidth: Fidelity.screen.width, screenHeight: Fidelity.screen.height, gravity: .resizeAspect).destination
        let matrix = track.colour.effectiveMatrix(width: track.width, height: track.height)
        let chain = ["scale=\(place.width):\(place.height):in_range=\(track.colour.effectiveRange == .full ? "pc" : "tv")"
                     + ":in_color_matrix=\(matrix == .bt709 ? "bt709" : matrix == .bt2020 ? "bt2020" : "bt601"):out_range=pc:flags=bilinear",
                     "format=rgb24", "pad=\(Fidelity.screen.width):\(Fidelity.screen.height):\(place.x):\(place.y):black"]
        // ffmpeg's autorotate turns the picture before this chain.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("real-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Command.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", path, "-vf", chain.joined(separator: ","),
                                                "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", output.path], timeout: 60)
        guard result.status == 0 else { throw CommandError.failed("ffmpeg \(file)", result) }
        let value = Fidelity.psnr(shown, Array(try Data(contentsOf: output)))
        #expect(value >= 35, "\(file): \(value) dB from ffmpeg's rendering (\(track.orientation.description), \(track.colour.description))")
    }
}
