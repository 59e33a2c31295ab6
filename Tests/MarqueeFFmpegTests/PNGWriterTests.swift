import Foundation
import MarqueeCore
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

@Suite final class PNGWriterTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// ffprobe's "WIDTHxHEIGHT codec" for the first video stream of `path`.
    func probe(_ path: String) throws -> String {
        let result = try Command.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                 "stream=width,height,codec_name", "-of", "csv=p=0", path])
        let fields = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        guard result.status == 0, fields.count == 3 else { throw CommandError.failed("ffprobe \(path)", result) }
        return "\(fields[1])x\(fields[2]) \(fields[0])"
    }

    /// The picture in `path` as packed RGB bytes, decoded by the ffmpeg CLI.
    func decodeRGB(_ path: String) throws -> [UInt8] {
        let raw = "\(path).rgb"
        let result = try Command.run("ffmpeg", ["-v", "error", "-y", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        guard result.status == 0 else { throw CommandError.failed("ffmpeg \(path)", result) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    @Test func writesALosslessPNGThatFFmpegReadsBack() throws {
        let frames = try decodedVideoFrames(try Fixtures.path(Fixtures.indexed()))
        let writer = try PNGWriter()
        for index in [0, 1, 37] {
            let path = "\(directory)/frame\(index).png"
            try writer.write(frames[index], to: path)
            #expect(try probe(path) == "320x240 png")
            // PNG is lossless: ffmpeg must read back exactly our RGB conversion, bar code included.
            let rgb = try PixelConverter().convert(frames[index], to: .rgb24)
            var expected: [UInt8] = []
            for row in 0..<240 {
                expected += UnsafeRawBufferPointer(start: rgb.planes[0].base + row * rgb.planes[0].bytesPerRow, count: 320 * 3)
            }
            let decoded = try decodeRGB(path)
            #expect(decoded == expected)
            let storage = TestPixels(bytes: decoded.count)
            decoded.withUnsafeBytes { storage.base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            let reread = VideoFrame(pts: .zero, duration: .zero, width: 320, height: 240, pixelFormat: .rgb24,
                                    planes: [ImagePlane(base: storage.base, bytesPerRow: 320 * 3, rows: 240)], storage: storage)
            #expect(frameIndex(of: reread) == index)
        }
    }

    @Test func oneWriterHandlesChangingAndOddSizes() throws {
        let writer = try PNGWriter()
        let sizes = [(853, 355), (64, 48), (853, 355), (1, 1)]
        for (index, (width, height)) in sizes.enumerated() {
            let path = "\(directory)/size:\(index).png"
            try writer.write(solidYUV420(width: width, height: height, y: 81, cb: 90, cr: 240), to: path)
            #expect(try probe(path) == "\(width)x\(height) png")
            let decoded = try decodeRGB(path)
            #expect(decoded.count == width * height * 3)
            #expect(decoded.prefix(3).elementsEqual([255, 0, 0], by: { abs(Int($0) - Int($1)) <= 3 }), "\(decoded.prefix(3))")
        }
    }

    @Test func failuresNameTheCallAndThePath() throws {
        let path = "\(directory)/missing/frame.png"
        let error = #expect(throws: FFmpegError.self) {
            try PNGWriter().write(solidYUV420(width: 16, height: 16, y: 16, cb: 128, cr: 128), to: path)
        }
        #expect(error?.call == "avio_open")
        #expect(error?.source == path)
        #expect(error?.description.hasPrefix("\(path): avio_open: ") == true, "\(String(describing: error))")

        let surface = VideoFrame(pts: .zero, duration: .zero, width: 16, height: 16, pixelFormat: .hardware("drm_prime"),
                                 planes: [], storage: TestPixels(bytes: 0))
        let unconvertible = #expect(throws: FFmpegError.self) { try PNGWriter().write(surface, to: "\(directory)/hw.png") }
        #expect(unconvertible?.source == "\(directory)/hw.png")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/hw.png"))
    }
}
