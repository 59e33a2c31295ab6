import Foundation
import Marquee
import MarqueeKMS
import MarqueeTestSupport
import Testing

/// Issue 19, must-show 2 on the host: still pictures as their files mean
/// them, composed on a memory screen (what fills a KMS plane) and compared
/// with ffmpeg's rendering: the eight EXIF orientations of a real photo
/// (../shared/media/exif, landscape and portrait), a full-range JPEG, and
/// a 48-megapixel JPEG decoded at an eighth of its size.
/// At least 35 dB from the right rendering and 6 dB further from the
/// picture left as stored, so each check can fail.
@Suite struct StillPictureFidelityTests {
    typealias Fidelity = PictureFidelityTests

    /// ffmpeg's filters that turn a picture stored with EXIF orientation `tag` upright.
    static func upright(_ tag: Int) -> [String] {
        [[], [], ["hflip"], ["hflip", "vflip"], ["vflip"], ["transpose=cclock_flip"], ["transpose=clock"],
         ["transpose=clock_flip"], ["transpose=cclock"]][tag]
    }

    @Test(arguments: ["Landscape", "Portrait"].flatMap { shape in (2...8).map { "\(shape)_\($0)" } })
    func exifOrientationIsHonoured(_ name: String) async throws {
        let path = "\(SharedMedia.directory)/exif/\(name).jpg"
        let tag = Int(name.split(separator: "_")[1])!
        let shown = try await Self.compose(path)
        let right = try Self.reference(path, turn: Self.upright(tag))
        let stored = try Self.reference(path, turn: [])
        let toRight = Fidelity.psnr(shown, right), toStored = Fidelity.psnr(shown, stored)
        #expect(toRight >= 35 && toRight - toStored >= 6, "\(name): \(toRight) dB from upright, \(toStored) dB from as stored")
    }

    /// A full-range (yuvj420p) JPEG read as full range, not stretched as if
    /// it were TV range (the wrong reading's levels: (v - 16) x 255 / 219).
    @Test func aFullRangeJPEGKeepsItsBlacksAndWhites() async throws {
        let path = try Self.picture("full-range-640x480.jpg", size: "640x480")
        let shown = try await Self.compose(path)
        let right = try Self.reference(path, turn: [])
        let stretch = "clip((val-16)*255/219\\,0\\,255)"
        let wrong = try Self.reference(path, turn: ["lutrgb=r=\(stretch):g=\(stretch):b=\(stretch)"])
        let toRight = Fidelity.psnr(shown, right), toWrong = Fidelity.psnr(shown, wrong)
        #expect(toRight >= 35 && toRight - toWrong >= 6, "\(toRight) dB from full range, \(toWrong) dB read as TV range")
    }

    /// 6000x8000 on a 640x400 screen: decoded at 1/8 (750x1000), then
    /// placed as any picture; the screen shows what one scale of the whole
    /// picture shows.
    @Test func aPictureLargerThanTheScreenIsDecodedToFitIt() async throws {
        let path = try Self.picture("large-6000x8000.jpg", size: "6000x8000")
        let shown = try await Self.compose(path)
        let right = try Self.reference(path, turn: [])
        #expect(Fidelity.psnr(shown, right) >= 35, "\(Fidelity.psnr(shown, right)) dB")
        #expect(PictureFit.fitted(PixelSize(width: 6000, height: 8000), into: PixelSize(width: 640, height: 400))
                == PixelSize(width: 400, height: 534))
        #expect(PictureFit.reduction(of: PixelSize(width: 6000, height: 8000), to: PixelSize(width: 400, height: 534)) == 3)
        #expect(PictureFit.reduction(of: PixelSize(width: 6000, height: 8000), to: PixelSize(width: 1080, height: 1440)) == 2)
        #expect(PictureFit.fitted(PixelSize(width: 1000, height: 1800), into: PixelSize(width: 1920, height: 1080)) == nil,
                "a portrait photo that fits a turned 1080p screen is kept whole")
    }

    /// A JPEG made by ffmpeg from testsrc2 (full range, as JPEGs are), cached.
    static func picture(_ name: String, size: String) throws -> String {
        let path = Fixtures.directory.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        let partial = path + ".partial.jpg"
        let result = try Command.run("ffmpeg", ["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                                "testsrc2=size=\(size):rate=1", "-frames:v", "1", "-q:v", "2", partial], timeout: 120)
        guard result.status == 0 else { throw CommandError.failed("ffmpeg \(name)", result) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    /// The screen after `path` was up (untimed) on a memory display.
    static func compose(_ path: String) async throws -> [UInt8] {
        try await Fidelity.compose(path, imageDuration: 0.1).screen
    }

    /// ffmpeg's rendering: one bilinear scale to the size on screen, the
    /// turn, and the borders where `Placement.fit` puts them.
    static func reference(_ path: String, turn: [String]) throws -> [UInt8] {
        let probe = try Command.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", path])
        let size = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        try #require(size.count == 2, "ffprobe \(path): \(probe.stdout)")
        let swaps = turn.contains { $0.hasPrefix("transpose") }
        let (width, height) = swaps ? (size[1], size[0]) : (size[0], size[1])
        let screen = Fidelity.screen
        let place = Placement.fit(width: width, height: height, sampleAspect: 1, screenWidth: screen.width, screenHeight: screen.height,
                                  gravity: .resizeAspect).destination
        let (scaledWidth, scaledHeight) = swaps ? (place.height, place.width) : (place.width, place.height)
        return try DisplayedFileTests.rgb(path, filters: [
            "scale=\(scaledWidth):\(scaledHeight):in_range=pc:in_color_matrix=bt601:out_range=pc:flags=bilinear", "format=rgb24",
        ] + turn + ["pad=\(screen.width):\(screen.height):\(place.x):\(place.y):black"])
    }
}
