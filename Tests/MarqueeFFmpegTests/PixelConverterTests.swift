import Foundation
import MarqueeCore
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// Every decoded video frame of `path`, in presentation order.
func decodedVideoFrames(_ path: String) throws -> [VideoFrame] {
    let demuxer = try Demuxer(source: path)
    let track = try #require(demuxer.media.preferredTrack(.video))
    demuxer.select(streams: [track.id])
    let decoder = try VideoDecoder(demuxer: demuxer, stream: track.id, threads: 2)
    var frames: [VideoFrame] = []
    while let packet = try demuxer.read() {
        if packet.streamIndex == track.id { frames += try decoder.decode(packet) }
    }
    return frames + (try decoder.decode(nil))
}

/// Memory a test fills by hand, as the storage of a synthetic frame.
final class TestPixels: FrameStorage, @unchecked Sendable {
    // @unchecked: written only while the test builds the frame, read afterwards.
    let base: UnsafeMutableRawPointer
    init(bytes: Int) { base = .allocate(byteCount: max(bytes, 1), alignment: 64) }
    deinit { base.deallocate() }
}

/// A yuv420p frame of one colour (video-range Y, Cb, Cr), with row padding
/// as a decoder leaves it.
func solidYUV420(width: Int, height: Int, y: UInt8, cb: UInt8, cr: UInt8) -> VideoFrame {
    let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
    let lumaPitch = width + 32, chromaPitch = chromaWidth + 32
    let storage = TestPixels(bytes: lumaPitch * height + 2 * chromaPitch * chromaHeight)
    let luma = storage.base, blue = luma + lumaPitch * height, red = blue + chromaPitch * chromaHeight
    luma.initializeMemory(as: UInt8.self, repeating: y, count: lumaPitch * height)
    blue.initializeMemory(as: UInt8.self, repeating: cb, count: chromaPitch * chromaHeight)
    red.initializeMemory(as: UInt8.self, repeating: cr, count: chromaPitch * chromaHeight)
    return VideoFrame(pts: .zero, duration: MediaTime(value: 1, timescale: 25), width: width, height: height,
                      pixelFormat: .yuv420p,
                      planes: [ImagePlane(base: luma, bytesPerRow: lumaPitch, rows: height),
                               ImagePlane(base: blue, bytesPerRow: chromaPitch, rows: chromaHeight),
                               ImagePlane(base: red, bytesPerRow: chromaPitch, rows: chromaHeight)],
                      storage: storage)
}

/// The bytes of pixel (x, y) of plane `plane`, `count` long.
func pixel(_ frame: VideoFrame, plane: Int = 0, x: Int, y: Int, bytes count: Int) -> [UInt8] {
    let row = frame.planes[plane].base + y * frame.planes[plane].bytesPerRow
    return Array(UnsafeRawBufferPointer(start: row + x * count, count: count))
}

@Suite struct PixelConverterTests {
    /// 2 s at 25 fps: 50 frames numbered 0...49.
    static let indexed = Fixtures.indexed()

    @Test(arguments: [PixelFormat.yuv420p, .xrgb8888, .rgb24, .nv12, .yuv420p10, .p010])
    func everyFrameKeepsItsIndexThroughConversion(to format: PixelFormat) throws {
        let frames = try decodedVideoFrames(try Fixtures.path(Self.indexed))
        #expect(frames.first?.pixelFormat == .yuv420p)
        let converter = PixelConverter()
        let converted = try frames.map { try converter.convert($0, to: format) }
        #expect(converted.allSatisfy { $0.pixelFormat == format && $0.width == 320 && $0.height == 240 })
        #expect(converted.map(frameIndex(of:)) == Array(0..<50))
        #expect(zip(frames, converted).allSatisfy { $0.pts == $1.pts && $0.duration == $1.duration })
    }

    @Test func oddSizedAndTenBitFramesConvert() throws {
        let converter = PixelConverter()
        let wide = try decodedVideoFrames(try Fixtures.path(Fixtures.indexed(seconds: 1, size: "854x356")))
        let deep = try decodedVideoFrames(try Fixtures.path(Fixtures.indexed(seconds: 1, pixelFormat: "yuv420p10le")))
        #expect(wide.count == 25 && deep.count == 25)
        #expect(deep.first?.pixelFormat == .yuv420p10)
        for (index, frame) in (wide + deep).enumerated() {
            let rgb = try converter.convert(frame, to: .xrgb8888)
            #expect(rgb.width == frame.width && rgb.height == frame.height)
            #expect(rgb.planes[0].bytesPerRow >= frame.width * 4)
            #expect(frameIndex(of: rgb) == index % 25, "frame \(index) of \(frame.width)x\(frame.height) \(frame.pixelFormat)")
        }
        // Odd sizes: 4:2:0 chroma rounds up, and the bar code still reads after scaling.
        let odd = try converter.convert(wide[7], to: .yuv420p, width: 853, height: 355)
        #expect(odd.width == 853 && odd.height == 355)
        #expect(odd.planes.map(\.rows) == [355, 178, 178])
        #expect(frameIndex(of: odd) == 7)
        #expect(frameIndex(of: try converter.convert(odd, to: .rgb24)) == 7)
    }

    @Test func scalingChangesSizeAndAlternatingSizesRebuildTheScaler() throws {
        let small = try decodedVideoFrames(try Fixtures.path(Self.indexed))
        let wide = try decodedVideoFrames(try Fixtures.path(Fixtures.indexed(seconds: 1, size: "854x356")))
        let converter = PixelConverter()
        for index in 0..<10 {
            let source = index.isMultiple(of: 2) ? small[index] : wide[index]
            let big = try converter.convert(source, to: .xrgb8888, width: 640, height: 480)
            #expect(big.width == 640 && big.height == 480)
            #expect(frameIndex(of: big) == index)
            let native = try converter.convert(source, to: .rgb24)
            #expect(native.width == source.width && frameIndex(of: native) == index)
        }
    }

    @Test func aFrameAlreadyInTheTargetFormatAndSizePassesThroughUncopied() throws {
        let frame = try #require(try decodedVideoFrames(try Fixtures.path(Self.indexed)).first)
        let same = try PixelConverter().convert(frame, to: .yuv420p, width: 320, height: 240)
        #expect(same.storage === frame.storage)
        #expect(same.planes.map(\.base) == frame.planes.map(\.base))
        let copied = try PixelConverter().convert(frame, to: .nv12)
        #expect(copied.storage !== frame.storage)
    }

    /// BT.601 video-range red, white and black come out as full-range RGB, and go back.
    @Test func knownColoursConvertToRGBAndBack() throws {
        let converter = PixelConverter()
        let colours: [(yuv: [UInt8], bgr: [UInt8])] = [([81, 90, 240], [0, 0, 255]), ([235, 128, 128], [255, 255, 255]),
                                                       ([16, 128, 128], [0, 0, 0]), ([145, 54, 34], [0, 255, 0])]
        for (yuv, bgr) in colours {
            let source = solidYUV420(width: 64, height: 48, y: yuv[0], cb: yuv[1], cr: yuv[2])
            let rgb = try converter.convert(source, to: .xrgb8888)
            let got = pixel(rgb, x: 31, y: 23, bytes: 4)
            #expect(zip(got.prefix(3), bgr).allSatisfy { abs(Int($0) - Int($1)) <= 3 }, "\(yuv) -> B,G,R \(got)")
            let back = try converter.convert(rgb, to: .yuv420p)
            let round = [pixel(back, x: 31, y: 23, bytes: 1)[0], pixel(back, plane: 1, x: 15, y: 11, bytes: 1)[0],
                         pixel(back, plane: 2, x: 15, y: 11, bytes: 1)[0]]
            #expect(zip(round, yuv).allSatisfy { abs(Int($0) - Int($1)) <= 3 }, "\(yuv) round trip gave \(round)")
        }
    }

    /// HD video is BT.709: its red would read as dark red through the SD matrix.
    @Test func highDefinitionUsesTheBT709Matrix() throws {
        let red709 = solidYUV420(width: 1280, height: 720, y: 63, cb: 102, cr: 240)
        let rgb = try PixelConverter().convert(red709, to: .rgb24)
        let got = pixel(rgb, x: 640, y: 360, bytes: 3)
        #expect(got[0] >= 250 && got[1] <= 5 && got[2] <= 5, "R,G,B \(got)")
    }

    @Test func convertsIntoCallerMemoryWithItsOwnPitch() throws {
        let frames = try decodedVideoFrames(try Fixtures.path(Self.indexed))
        let converter = PixelConverter()
        let pitch = 320 * 4 + 64
        let memory = UnsafeMutableRawPointer.allocate(byteCount: pitch * 240, alignment: 64)
        defer { memory.deallocate() }
        for frame in frames.prefix(3) {
            memory.initializeMemory(as: UInt8.self, repeating: 0xAB, count: pitch * 240)
            try converter.convert(frame, into: [MutableImagePlane(base: memory, bytesPerRow: pitch, rows: 240)], format: .xrgb8888)
            let expected = try converter.convert(frame, to: .xrgb8888)
            for row in [0, 8, 119, 239] {
                let got = UnsafeRawBufferPointer(start: memory + row * pitch, count: pitch)
                let want = UnsafeRawBufferPointer(start: expected.planes[0].base + row * expected.planes[0].bytesPerRow, count: 320 * 4)
                #expect(Array(got.prefix(320 * 4)) == Array(want), "row \(row)")
                #expect(got.suffix(64).allSatisfy { $0 == 0xAB }, "row \(row) padding was written")
            }
        }
    }

    @Test func sameFormatIntoCallerMemoryIsAPlainCopy() throws {
        let frame = solidYUV420(width: 33, height: 17, y: 99, cb: 77, cr: 55)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 40 * 17 + 2 * 20 * 9, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: 40 * 17 + 2 * 20 * 9)
        let planes = [MutableImagePlane(base: memory, bytesPerRow: 40, rows: 17),
                      MutableImagePlane(base: memory + 40 * 17, bytesPerRow: 20, rows: 9),
                      MutableImagePlane(base: memory + 40 * 17 + 20 * 9, bytesPerRow: 20, rows: 9)]
        try PixelConverter().convert(frame, into: planes, format: .yuv420p)
        #expect(memory.load(fromByteOffset: 16 * 40 + 32, as: UInt8.self) == 99)
        #expect(memory.load(fromByteOffset: 16 * 40 + 33, as: UInt8.self) == 0, "wrote past the row")
        #expect(planes[1].base.load(fromByteOffset: 8 * 20 + 16, as: UInt8.self) == 77)
        #expect(planes[2].base.load(fromByteOffset: 8 * 20 + 16, as: UInt8.self) == 55)
    }

    /// A full-range picture (a JPEG's) written to a limited-range YUV target
    /// of the same size: white 255 becomes 235 and black 0 becomes 16, in
    /// the same format (a y4m file) and in NV12 (a KMS plane), where
    /// libswscale would otherwise copy the values as they are.
    @Test(arguments: [PixelFormat.yuv420p, .nv12])
    func fullRangeBecomesLimitedRangeWithoutScaling(to format: PixelFormat) throws {
        let limited = ColourDescription(range: .limited, matrix: .bt601)
        for (full, expected) in [(UInt8(255), UInt8(235)), (0, 16), (128, 126)] {
            var frame = solidYUV420(width: 64, height: 48, y: full, cb: 128, cr: 128)
            frame.colour = ColourDescription(range: .full, matrix: .bt601)
            let converted = try PixelConverter().convert(frame, to: format, colour: limited)
            let luma = pixel(converted, x: 10, y: 10, bytes: 1)[0]
            #expect(abs(Int(luma) - Int(expected)) <= 1, "\(format): full-range \(full) became \(luma), expected \(expected)")
            #expect(converted.colour.range == .limited)
        }
    }

    @Test func refusesDestinationsTooSmallAndHardwareFrames() throws {
        let frame = solidYUV420(width: 64, height: 48, y: 81, cb: 90, cr: 240)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64 * 4 * 48, alignment: 16)
        defer { memory.deallocate() }
        let narrow = #expect(throws: FFmpegError.self) {
            try PixelConverter().convert(frame, into: [MutableImagePlane(base: memory, bytesPerRow: 64 * 3, rows: 48)], format: .xrgb8888)
        }
        #expect(narrow?.call == "sws_scale" && narrow?.message.contains("256 needed") == true, "\(String(describing: narrow))")
        let short = #expect(throws: FFmpegError.self) {
            try PixelConverter().convert(frame, into: [MutableImagePlane(base: memory, bytesPerRow: 64 * 4, rows: 47)], format: .xrgb8888)
        }
        #expect(short?.message.contains("47 rows") == true)
        let missing = #expect(throws: FFmpegError.self) {
            try PixelConverter().convert(frame, into: [MutableImagePlane(base: memory, bytesPerRow: 64, rows: 48)], format: .nv12)
        }
        #expect(missing?.message.contains("2 needed") == true)

        let surface = VideoFrame(pts: .zero, duration: .zero, width: 64, height: 48, pixelFormat: .hardware("vaapi"),
                                 planes: [], storage: TestPixels(bytes: 0))
        let hardware = #expect(throws: FFmpegError.self) { try PixelConverter().convert(surface, to: .xrgb8888) }
        #expect(hardware?.call == "sws_init_context" && hardware?.message.contains("vaapi") == true)

        let partial = VideoFrame(pts: .zero, duration: .zero, width: 64, height: 48, pixelFormat: .yuv420p,
                                 planes: [frame.planes[0]], storage: frame.storage)
        let missingPlanes = #expect(throws: FFmpegError.self) { try PixelConverter().convert(partial, to: .xrgb8888) }
        #expect(missingPlanes?.message.contains("1 of 3 planes") == true, "\(String(describing: missingPlanes))")
    }
}
