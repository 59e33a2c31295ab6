import Foundation
import Marquee
import MarqueeKMS
import MarqueeTestSupport
import Testing

/// Issue 38 on the host: two players composed as layers of one
/// `LayeredDisplay` in memory (every layer composed, as on a card with one
/// plane): each layer's rectangle is ffmpeg's rendering of its content at
/// that size, and a layer hidden, or seen through, is drawn again there
/// and only there.
@Suite(.serialized) struct LayoutPictureTests {
    typealias Fidelity = PictureFidelityTests
    static let screen = PixelSize(width: 640, height: 360)
    /// Left half: an H.264 picture turned 90 degrees and mirrored by its
    /// display orientation SEI, with 8:9 pixels.
    static let videoRect = PixelRect(x: 0, y: 0, width: 320, height: 360)
    /// Right: an EXIF-turned JPEG inside its own background colour.
    static let pictureRect = PixelRect(x: 320, y: 36, width: 320, height: 288)
    static let pictureBackground: UInt32 = 0x203040

    static var videoRecipe: Fixtures.Recipe {
        Fixtures.Recipe(name: "layout-sar-8-9-sei-90-flip", fileExtension: "mp4", arguments: [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=1:duration=1,fps=25",
            "-vf", "scale=out_color_matrix=bt601:out_range=tv,format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast",
            "-qp", "0", "-frames:v", "5", "-colorspace", "smpte170m",
            "-bsf:v", "h264_metadata=sample_aspect_ratio=8/9:display_orientation=insert:rotate=90:flip=horizontal",
        ])
    }

    @Test func eachLayerShowsItsOwnContentInItsRectangle() async throws {
        let display = LayeredDisplay.memory(width: Self.screen.width, height: Self.screen.height, clock: MonotonicClock())
        defer { display.close() }
        let configuration = PlayerConfiguration(videoOutput: nil, audioOutput: nil, hardwareDecoding: .software)
        let video = PlayerLayer(display: display, settings: LayerSettings(frame: .pixels(x: 0, y: 0, width: 320, height: 360)),
                                items: [PlayerItem(source: try Fixtures.path(Self.videoRecipe))], configuration: configuration)
        let picture = PlayerLayer(display: display, settings: LayerSettings(frame: LayerRect(x: .percent(50), y: .percent(10),
                                                                                         width: .percent(50), height: .percent(80)),
                                                                        zPosition: 1, background: Self.pictureBackground),
                                  items: [PlayerItem(source: "\(SharedMedia.directory)/exif/Landscape_6.jpg")], configuration: configuration)
        defer {
            video.remove()
            picture.remove()
        }
        #expect(picture.placement == Self.pictureRect)
        let shown = await video.player.seek(to: MediaTime(seconds: 0.08, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(shown)
        picture.player.play()
        try await Self.waitUntil { video.isReadyForDisplay && picture.isReadyForDisplay }

        var screen = try #require(display.screen())
        let videoReference = try Self.reference(try Fixtures.path(Self.videoRecipe), in: Self.videoRect.size, sampleAspect: 8.0 / 9,
                                                turn: ["hflip", "transpose=cclock"], readAs: "in_range=tv:in_color_matrix=bt601", pad: 0)
        let videoPSNR = Fidelity.psnr(Self.crop(screen.rgb, Self.videoRect), videoReference)
        #expect(videoPSNR >= 35, "video layer: \(videoPSNR) dB")
        let pictureReference = try Self.reference("\(SharedMedia.directory)/exif/Landscape_6.jpg", in: Self.pictureRect.size, sampleAspect: 1,
                                                  turn: ["transpose=clock"], readAs: "in_range=pc:in_color_matrix=bt601",
                                                  pad: Self.pictureBackground)
        let picturePSNR = Fidelity.psnr(Self.crop(screen.rgb, Self.pictureRect), pictureReference)
        #expect(picturePSNR >= 35, "picture layer: \(picturePSNR) dB")
        // Above the picture layer: the display's background (black).
        #expect(Self.crop(screen.rgb, PixelRect(x: 320, y: 0, width: 320, height: 36)).allSatisfy { $0 == 0 })

        // Seen through at half: the picture over black is half as bright.
        picture.opacity = 0.5
        try await Task.sleep(for: .milliseconds(200))
        screen = try #require(display.screen())
        let half = Self.crop(screen.rgb, Self.pictureRect)
        let expected = pictureReference.map { UInt8((Int($0) + 1) / 2) }
        #expect(Fidelity.psnr(half, expected) >= 35, "half opacity: \(Fidelity.psnr(half, expected)) dB")
        #expect(Fidelity.psnr(Self.crop(screen.rgb, Self.videoRect), videoReference) >= 35, "the video layer redrawn when it need not be")

        // Hidden: the display's background there, the video untouched.
        picture.isHidden = true
        try await Task.sleep(for: .milliseconds(200))
        screen = try #require(display.screen())
        #expect(Self.crop(screen.rgb, Self.pictureRect).allSatisfy { $0 == 0 }, "a hidden layer still shows")
        #expect(Fidelity.psnr(Self.crop(screen.rgb, Self.videoRect), videoReference) >= 35)
    }

    /// Layers stack by z: a layer moved over another covers it, and one
    /// moved off it shows what is under it again.
    @Test func aLayerOverAnotherCoversItUntilItMoves() async throws {
        let display = LayeredDisplay.memory(width: 320, height: 240, clock: MonotonicClock(), background: 0x000000)
        defer { display.close() }
        let configuration = PlayerConfiguration(videoOutput: nil, audioOutput: nil, hardwareDecoding: .software)
        let white = PlayerLayer(display: display, settings: LayerSettings(frame: .pixels(x: 0, y: 0, width: 320, height: 240), gravity: .resize),
                                items: [PlayerItem(source: try Fixtures.path(Fixtures.plain("white")))], configuration: configuration)
        let grey = PlayerLayer(display: display, settings: LayerSettings(frame: .pixels(x: 0, y: 0, width: 160, height: 120), gravity: .resize,
                                                                     zPosition: 5),
                               items: [PlayerItem(source: try Fixtures.path(Fixtures.plain("0x808080")))], configuration: configuration)
        defer {
            white.remove()
            grey.remove()
        }
        _ = await white.player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero)
        _ = await grey.player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero)
        try await Self.waitUntil { white.isReadyForDisplay && grey.isReadyForDisplay }
        var screen = try #require(display.screen())
        #expect(Self.mean(screen.rgb, 320, PixelRect(x: 0, y: 0, width: 160, height: 120)).rounded() == 128)
        #expect(Self.mean(screen.rgb, 320, PixelRect(x: 160, y: 120, width: 160, height: 120)) > 250)
        grey.zPosition = -1
        try await Task.sleep(for: .milliseconds(200))
        screen = try #require(display.screen())
        #expect(Self.mean(screen.rgb, 320, PixelRect(x: 0, y: 0, width: 160, height: 120)) > 250, "the white layer is on top now")
        grey.zPosition = 5
        grey.frame = .pixels(x: 160, y: 120, width: 160, height: 120)
        try await Task.sleep(for: .milliseconds(200))
        screen = try #require(display.screen())
        #expect(Self.mean(screen.rgb, 320, PixelRect(x: 0, y: 0, width: 160, height: 120)) > 250, "the old place shows the white layer again")
        #expect(Self.mean(screen.rgb, 320, PixelRect(x: 160, y: 120, width: 160, height: 120)).rounded() == 128)
    }

    /// `[display] mirror`: one layout on two displays. The player draws
    /// once; the second display shows the same pixels, and a third of
    /// another size shows the picture at its own size (its layer placed
    /// by `%`, scaled from the first display's picture).
    @Test func aMirroredLayoutShowsTheSamePictureOnEveryDisplay() async throws {
        let clock = MonotonicClock()
        let mirror = MirroredDisplay([
            LayeredDisplay.memory(width: Self.screen.width, height: Self.screen.height, clock: clock, name: "one"),
            LayeredDisplay.memory(width: Self.screen.width, height: Self.screen.height, clock: clock, refreshRate: 50, name: "two"),
            LayeredDisplay.memory(width: Self.screen.width * 2, height: Self.screen.height * 2, clock: clock, name: "big"),
        ])
        defer { mirror.close() }
        let configuration = PlayerConfiguration(videoOutput: nil, audioOutput: nil, hardwareDecoding: .software)
        let video = PlayerLayer(display: mirror, settings: LayerSettings(frame: LayerRect(x: .pixels(0), y: .pixels(0), width: .percent(50),
                                                                                       height: .percent(100))),
                                items: [PlayerItem(source: try Fixtures.path(Self.videoRecipe))], configuration: configuration)
        defer { video.remove() }
        #expect(video.placement == Self.videoRect)
        let shown = await video.player.seek(to: MediaTime(seconds: 0.08, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(shown)
        try await Self.waitUntil { mirror.displays.allSatisfy { $0.stack.allSatisfy(\.isReadyForDisplay) } }
        let screens = try mirror.displays.map { try #require($0.screen()) }
        let reference = try Self.reference(try Fixtures.path(Self.videoRecipe), in: Self.videoRect.size, sampleAspect: 8.0 / 9,
                                           turn: ["hflip", "transpose=cclock"], readAs: "in_range=tv:in_color_matrix=bt601", pad: 0)
        let first = Fidelity.psnr(Self.crop(screens[0].rgb, Self.videoRect), reference)
        #expect(first >= 35, "first display: \(first) dB")
        #expect(screens[1].rgb == screens[0].rgb, "the second display differs from the first")
        // Twice the size: each pixel of the first display's picture twice across and down.
        let big = Self.crop(screens[2].rgb, PixelRect(x: 0, y: 0, width: 640, height: 720), screenWidth: 1280)
        var halved: [UInt8] = []
        for y in stride(from: 0, to: 720, by: 2) {
            for x in stride(from: 0, to: 640, by: 2) { halved += big[(y * 640 + x) * 3..<(y * 640 + x) * 3 + 3] }
        }
        let scaled = Fidelity.psnr(halved, Self.crop(screens[0].rgb, Self.videoRect))
        #expect(scaled >= 35, "the larger display: \(scaled) dB")
        #expect(Self.crop(screens[2].rgb, PixelRect(x: 640, y: 0, width: 640, height: 720), screenWidth: 1280).allSatisfy { $0 == 0 })
    }

    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = Date(timeIntervalSinceNow: 30)
        while !condition() {
            try #require(Date() < deadline, "timed out")
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(100))
    }

    static func crop(_ rgb: [UInt8], _ rect: PixelRect, screenWidth: Int = screen.width) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rect.width * rect.height * 3)
        for y in rect.y..<rect.y + rect.height {
            let start = (y * screenWidth + rect.x) * 3
            out += rgb[start..<start + rect.width * 3]
        }
        return out
    }

    static func mean(_ rgb: [UInt8], _ screenWidth: Int, _ rect: PixelRect) -> Double {
        let part = crop(rgb, rect, screenWidth: screenWidth)
        return Double(part.reduce(0) { $0 + Int($1) }) / Double(part.count)
    }

    /// ffmpeg's rendering of `path`'s first picture placed in a `size` layer
    /// by `Placement.fit` (one scale from YUV, then the turn), borders `pad`.
    static func reference(_ path: String, in size: PixelSize, sampleAspect: Double, turn: [String], readAs: String,
                          pad: UInt32) throws -> [UInt8] {
        let probe = try Command.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                                "-of", "csv=p=0", path])
        let stored = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        try #require(stored.count == 2, "ffprobe \(path): \(probe.stdout)")
        let swaps = turn.contains { $0.hasPrefix("transpose") }
        let (width, height) = swaps ? (stored[1], stored[0]) : (stored[0], stored[1])
        let place = Placement.fit(width: width, height: height, sampleAspect: swaps ? 1 / sampleAspect : sampleAspect,
                                  screenWidth: size.width, screenHeight: size.height, gravity: .resizeAspect).destination
        let (scaledWidth, scaledHeight) = swaps ? (place.height, place.width) : (place.width, place.height)
        let colour = String(format: "0x%06X", pad)
        return try DisplayedFileTests.rgb(path, filters: ["scale=\(scaledWidth):\(scaledHeight):\(readAs):out_range=pc:flags=bilinear",
                                                          "format=rgb24"] + turn
                                          + ["pad=\(size.width):\(size.height):\(place.x):\(place.y):\(colour)"])
    }
}

extension PixelRect {
    var size: PixelSize { PixelSize(width: width, height: height) }
}
