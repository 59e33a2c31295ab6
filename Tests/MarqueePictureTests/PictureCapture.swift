import Foundation
import Marquee
import MarqueeKMS
import MarqueeTestSupport
import Testing

/// Pictures a real player shows on a memory screen, and ffmpeg's renderings
/// of the same pictures to compare them with.
enum PictureCapture {
    struct Shown {
        /// RGB24, `width` x `height`.
        var screen: [UInt8]
        /// What the stats say was applied to the picture.
        var picture: String?
    }

    /// The picture at `seconds` of item time (an exact seek), shown paused on
    /// a `width` x `height` memory screen.
    static func paused(_ path: String, at seconds: Double, width: Int, height: Int,
                       deinterlacing: Deinterlacing = Deinterlacing()) async throws -> Shown {
        let clock = VirtualClock()
        let display = MemoryDisplay(width: width, height: height, clock: clock)
        var configuration = PlayerConfiguration(videoOutput: display, audioOutput: nil, hostClock: clock, untimed: true,
                                                hardwareDecoding: .software)
        configuration.deinterlacing = deinterlacing
        let player = QueuePlayer(items: [PlayerItem(source: path)], configuration: configuration)
        defer { player.stop() }
        let shown = await player.seek(to: MediaTime(seconds: seconds, preferredTimescale: 90_000), toleranceBefore: .zero, toleranceAfter: .zero)
        try #require(shown, "\(path): the paused seek to \(seconds) s showed nothing")
        return Shown(screen: display.screen(), picture: player.stats.snapshot.picture)
    }

    /// ffmpeg's rendering of the first frame out of `filters` on `path`, as RGB24.
    static func ffmpeg(_ path: String, filters: [String]) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(at: output) }
        let chain = filters + ["format=rgb24"]
        // -copyts: select's t is the pts as stored, which the player's start time is counted from.
        let result = try Command.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-copyts", "-i", path,
                                                "-vf", chain.joined(separator: ","), "-frames:v", "1",
                                                "-f", "rawvideo", "-pix_fmt", "rgb24", output.path], timeout: 120)
        guard result.status == 0 else { throw CommandError.failed("ffmpeg \(path)", result) }
        return Array(try Data(contentsOf: output))
    }

    /// The filter that lets through the frames whose presentation time is at
    /// least `seconds` (stream time, as the file counts it).
    static func select(from seconds: Double) -> String { "select=gte(t\\,\(seconds))" }

    /// The filters that place a decoded picture on a `screen` as
    /// `Placement.fit` does: one bilinear scale from YUV (read as `range`
    /// and `matrix`, ffmpeg's names) to RGB, then the borders.
    static func placed(width: Int, height: Int, sampleAspect: Double, screen: (width: Int, height: Int),
                       range: String, matrix: String) -> [String] {
        let place = Placement.fit(width: width, height: height, sampleAspect: sampleAspect, screenWidth: screen.width,
                                  screenHeight: screen.height, gravity: .resizeAspect).destination
        return ["scale=\(place.width):\(place.height):in_range=\(range):in_color_matrix=\(matrix):out_range=pc:flags=bilinear",
                "format=rgb24", "pad=\(screen.width):\(screen.height):\(place.x):\(place.y):black"]
    }

    /// Grey levels (BT.601 luma of the RGB) of `rect` in an RGB24 screen `screenWidth` wide.
    static func luma(_ rgb: [UInt8], screenWidth: Int, rect: PixelRect) -> [[Double]] {
        (rect.y..<rect.y + rect.height).map { y in
            (rect.x..<rect.x + rect.width).map { x in
                let index = (y * screenWidth + x) * 3
                return 0.299 * Double(rgb[index]) + 0.587 * Double(rgb[index + 1]) + 0.114 * Double(rgb[index + 2])
            }
        }
    }

    /// How combed a picture is: the mean difference between adjacent lines
    /// (one from each field) over the mean difference between lines two apart
    /// (the same field). A woven picture of something moving differs far
    /// more line to line than field line to field line (about 6-7 on the
    /// fixtures); a progressive or deinterlaced one less (about 0.5-0.7).
    static func comb(_ picture: [[Double]]) -> Double {
        var adjacent = 0.0, twoApart = 0.0
        for y in 1..<picture.count - 1 {
            for x in 0..<picture[y].count {
                adjacent += abs(picture[y][x] - picture[y - 1][x])
                twoApart += abs(picture[y + 1][x] - picture[y - 1][x])
            }
        }
        return twoApart == 0 ? 0 : adjacent / twoApart
    }
}
