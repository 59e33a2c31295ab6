import FoundationEssentials
import Marquee
import MarqueeApp

/// `marquee thumbnail INPUT --at T [--at T...] [--size WxH] [--exact] -o
/// PATTERN.png`, or `--every SECONDS` for a contact sheet: pictures of a
/// file at given times, as the display shows them (orientation, pixel
/// aspect), through the library's `ImageGenerator`. Each picture written
/// is one line on stdout (requested time, actual time, file); a time that
/// gives none is one line on stderr, and the others are still written.
struct ThumbnailCommand: Subcommand {
    static let name = "thumbnail"
    static let operands = "FILE_OR_URL"
    static let options: [OptionSpec] = [
        OptionSpec("--at", "SECONDS", .input, "a time to take a picture at (repeatable)"),
        OptionSpec("--every", "SECONDS", .input, "a picture every SECONDS, tiled into one contact sheet"),
        OptionSpec("--size", "WxH", default: "the picture's own size; 320x180 a tile on a sheet", .display,
                   "the largest picture, fitted inside keeping its shape"),
        OptionSpec("--exact", .decoding, "the frame on screen at each time, not the keyframe before it (slower)"),
        OptionSpec("-o", "PATTERN.png", .diagnostics, "where to write: %d in it numbers the pictures from 1 (needed for several --at)"),
    ]
    static let summary = "Write pictures of a file at given times (--at), or a contact sheet (--every), as PNG."
    /// A contact sheet's tiles, at most: an hour at one a second would be no sheet at all.
    static let sheetLimit = 400

    let input: String
    let times: [Double]
    let every: Double?
    let size: PixelSize?
    let exact: Bool
    let pattern: String

    init(parsing parser: inout ArgumentParser) throws {
        times = try parser.options("--at").map { text in
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else { throw UsageError("--at: '\(text)' is not a time in seconds") }
            return seconds
        }
        every = try parser.option("--every").map { text in
            guard let seconds = Double(text), seconds.isFinite, seconds > 0 else { throw UsageError("--every: '\(text)' is not a number of seconds above 0") }
            return seconds
        }
        size = try parser.option("--size").map { text in
            let parts = text.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] >= 1, parts[1] >= 1, parts[0] <= 16_384, parts[1] <= 16_384 else {
                throw UsageError("--size: '\(text)' is not WIDTHxHEIGHT, each 1 to 16384")
            }
            return PixelSize(width: parts[0], height: parts[1])
        }
        exact = parser.flag("--exact")
        guard let output = try parser.option("-o") else { throw UsageError("thumbnail needs -o PATTERN.png") }
        pattern = output
        let inputs = try parser.positional()
        guard inputs.count == 1 else { throw UsageError("thumbnail takes one input") }
        input = inputs[0]
        guard times.isEmpty != (every == nil) else { throw UsageError("thumbnail takes --at times or --every SECONDS, one of the two") }
        if times.count > 1, !pattern.contains("%d") { throw UsageError("-o: several --at need %d in the name, e.g. thumb-%d.png") }
    }

    func run() async -> Int32 {
        var generator = ImageGenerator(asset: Asset(source: input))
        if exact {
            generator.requestedTimeToleranceBefore = .zero
            generator.requestedTimeToleranceAfter = .zero
        }
        if let every { return await contactSheet(generator, every: every) }
        generator.maximumSize = size
        var failures = 0
        for (index, result) in await collect(generator, times).enumerated() {
            let path = pattern.replacing("%d", with: String(index + 1))
            switch result {
            case .success(let image):
                do {
                    try Data(try ScreenCapture().png(of: image.picture)).write(to: URL(fileURLWithPath: path))
                    print("\(String(image.requestedTime.seconds, places: 3)) \(String(image.actualTime.seconds, places: 3)) \(path)")
                } catch {
                    Diagnostics.error("\(error)")
                    failures += 1
                }
            case .failure(let error):
                Diagnostics.error("\(error)")
                failures += 1
            }
        }
        return failures == 0 ? 0 : 1
    }

    private func collect(_ generator: ImageGenerator, _ seconds: [Double]) async -> [Result<ImageGenerator.Image, any Error>] {
        var results: [Result<ImageGenerator.Image, any Error>] = []
        for await result in generator.images(at: seconds.map { MediaTime(seconds: $0, preferredTimescale: 90_000) }) {
            results.append(result)
        }
        return results
    }

    /// One picture every `every` seconds over the item, tiled left to right
    /// and top to bottom on a sheet as square as it can be.
    private func contactSheet(_ generator: ImageGenerator, every: Double) async -> Int32 {
        var generator = generator
        let tile = size ?? PixelSize(width: 320, height: 180)
        generator.maximumSize = tile
        let duration: Double
        do {
            duration = try await Asset(source: input).load(.duration).seconds
        } catch {
            Diagnostics.error("\(error)")
            return 1
        }
        guard duration.isFinite, duration > 0 else {
            Diagnostics.error("\(input): no duration to take a picture every \(every) s of (a live stream?)")
            return 1
        }
        let count = min(Self.sheetLimit, max(1, Int((duration / every).rounded(.up))))
        let times = (0..<count).map { Double($0) * every }.filter { $0 < duration }
        let columns = Int(Double(times.count).squareRoot().rounded(.up))
        let rows = (times.count + columns - 1) / columns
        var sheet = [UInt8](repeating: 0, count: columns * tile.width * rows * tile.height * 3)
        var failures = 0
        for (index, result) in await collect(generator, times).enumerated() {
            guard case .success(let image) = result else {
                if case .failure(let error) = result { Diagnostics.error("\(error)") }
                failures += 1
                continue
            }
            Self.place(image.picture, in: &sheet, sheetWidth: columns * tile.width,
                       x: (index % columns) * tile.width + (tile.width - image.picture.width) / 2,
                       y: (index / columns) * tile.height + (tile.height - image.picture.height) / 2)
        }
        do {
            let png = try ScreenCapture().png(rgb: sheet, width: columns * tile.width, height: rows * tile.height)
            try Data(png).write(to: URL(fileURLWithPath: pattern))
            print("\(times.count) pictures every \(every) s, \(columns)x\(rows) tiles of \(tile.width)x\(tile.height): \(pattern)")
        } catch {
            Diagnostics.error("\(pattern): \(error)")
            return 1
        }
        return failures == 0 ? 0 : 1
    }

    /// Copies an RGB24 picture into the sheet at (x, y).
    private static func place(_ picture: VideoFrame, in sheet: inout [UInt8], sheetWidth: Int, x: Int, y: Int) {
        let plane = picture.planes[0]
        let rowBytes = picture.width * 3
        withExtendedLifetime(picture) {
            for row in 0..<picture.height {
                let source = plane.base.advanced(by: row * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let start = ((y + row) * sheetWidth + x) * 3
                sheet.withUnsafeMutableBufferPointer { buffer in
                    (buffer.baseAddress! + start).update(from: source, count: rowBytes)
                }
            }
        }
    }
}
