import MarqueeCore
import Testing

/// Blending a frame toward a colour in the frame's own terms: untouched at
/// visibility 1, exactly the colour's code values at 0, and one way between.
@Suite struct PictureFadeTests {
    /// Owns a copy of a test picture's bytes for as long as its frame lives.
    final class Bytes: FrameStorage, @unchecked Sendable {
        let bases: [UnsafeMutableRawPointer]

        init(_ planes: [[UInt8]]) {
            bases = planes.map { bytes in
                let base = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
                base.copyMemory(from: bytes, byteCount: bytes.count)
                return base
            }
        }

        deinit { bases.forEach { $0.deallocate() } }
    }

    /// A frame over `planes`, each `bytesPerRow[i]` wide.
    static func frame(_ format: PixelFormat, width: Int, height: Int, planes: [[UInt8]], bytesPerRow: [Int],
                      colour: ColourDescription = .unspecified) -> VideoFrame {
        let storage = Bytes(planes)
        let views = planes.indices.map {
            ImagePlane(base: UnsafeRawPointer(storage.bases[$0]), bytesPerRow: bytesPerRow[$0], rows: planes[$0].count / bytesPerRow[$0])
        }
        var frame = VideoFrame(pts: .zero, duration: .zero, width: width, height: height, pixelFormat: format, planes: views, storage: storage)
        frame.colour = colour
        return frame
    }

    static func bytes(_ frame: VideoFrame, plane: Int) -> [UInt8] {
        let view = frame.planes[plane]
        return Array(UnsafeRawBufferPointer(start: view.base, count: view.bytesPerRow * view.rows))
    }

    static func words(_ frame: VideoFrame, plane: Int) -> [UInt16] {
        let view = frame.planes[plane]
        return Array(UnsafeBufferPointer(start: view.base.assumingMemoryBound(to: UInt16.self), count: view.bytesPerRow * view.rows / 2))
    }

    /// A 4x2 yuv420p picture: Y, then one row each of U and V.
    static let planar = frame(.yuv420p, width: 4, height: 2, planes: [[200, 180, 60, 235, 16, 100, 128, 90], [40, 220], [30, 250]],
                              bytesPerRow: [4, 2, 2])

    @Test func fullVisibilityKeepsThePictureAndNoneIsTheColourInLimitedBT601() throws {
        let kept = try #require(PictureFade.faded(Self.planar, toward: 0x000000, visibility: 1))
        #expect((0..<3).map { Self.bytes(kept, plane: $0) } == (0..<3).map { Self.bytes(Self.planar, plane: $0) })
        let black = try #require(PictureFade.faded(Self.planar, toward: 0x000000, visibility: 0))
        #expect(Self.bytes(black, plane: 0).allSatisfy { $0 == 16 })
        #expect(Self.bytes(black, plane: 1).allSatisfy { $0 == 128 } && Self.bytes(black, plane: 2).allSatisfy { $0 == 128 })
        // Pure red through BT.601 at limited range: Y 81, Cb 90, Cr 240.
        let red = try #require(PictureFade.faded(Self.planar, toward: 0xFF0000, visibility: 0))
        #expect([Self.bytes(red, plane: 0)[0], Self.bytes(red, plane: 1)[0], Self.bytes(red, plane: 2)[0]] == [81, 90, 240])
    }

    /// Every sample moves toward the colour as visibility falls, never past it.
    @Test func everySampleMovesOneWayAsVisibilityFalls() throws {
        var previous = Self.bytes(Self.planar, plane: 0)
        for step in stride(from: 20, through: 0, by: -1) {
            let faded = try #require(PictureFade.faded(Self.planar, toward: 0x000000, visibility: Double(step) / 20))
            let now = Self.bytes(faded, plane: 0)
            #expect(zip(now, previous).allSatisfy { $0 <= $1 && $0 >= 16 }, "at \(step)/20: \(now) after \(previous)")
            previous = now
        }
    }

    /// Full range white is 255 with neutral chroma; NV12 alternates Cb and Cr.
    @Test func interleavedChromaAndFullRangeTakeTheirOwnCodes() throws {
        let nv12 = Self.frame(.nv12, width: 2, height: 2, planes: [[10, 20, 30, 40], [0, 0]], bytesPerRow: [2, 2],
                              colour: ColourDescription(range: .full, matrix: .bt709))
        let white = try #require(PictureFade.faded(nv12, toward: 0xFFFFFF, visibility: 0))
        #expect(Self.bytes(white, plane: 0) == [255, 255, 255, 255])
        #expect(Self.bytes(white, plane: 1) == [128, 128])
        // Blue through BT.709, full range: Cb at the top, Cr below the middle.
        let blue = try #require(PictureFade.faded(nv12, toward: 0x0000FF, visibility: 0))
        #expect(Self.bytes(blue, plane: 1) == [255, 116])
    }

    /// P010 keeps its 10 bits at the top of each 16-bit word.
    @Test func tenBitSamplesAreBlendedInTheirWords() throws {
        let y: [UInt16] = [940 << 6, 64 << 6], uv: [UInt16] = [512 << 6, 512 << 6]
        let bytes = { (words: [UInt16]) in words.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] } }
        let p010 = Self.frame(.p010, width: 2, height: 1, planes: [bytes(y), bytes(uv)], bytesPerRow: [4, 4])
        let black = try #require(PictureFade.faded(p010, toward: 0x000000, visibility: 0))
        #expect(Self.words(black, plane: 0) == [64 << 6, 64 << 6])
        let half = try #require(PictureFade.faded(p010, toward: 0x000000, visibility: 0.5))
        #expect(Self.words(half, plane: 0) == [(64 + 438) << 6, 64 << 6])
    }

    @Test func rgbLayoutsBlendEachChannelToItsOwnValue() throws {
        // B, G, R, X in memory.
        let xrgb = Self.frame(.xrgb8888, width: 1, height: 1, planes: [[0, 0, 0, 0]], bytesPerRow: [4])
        #expect(Self.bytes(try #require(PictureFade.faded(xrgb, toward: 0x102030, visibility: 0)), plane: 0) == [0x30, 0x20, 0x10, 0])
        let rgb = Self.frame(.rgb24, width: 2, height: 1, planes: [[200, 200, 200, 0, 0, 0]], bytesPerRow: [6])
        #expect(Self.bytes(try #require(PictureFade.faded(rgb, toward: 0x102030, visibility: 0)), plane: 0) == [0x10, 0x20, 0x30, 0x10, 0x20, 0x30])
    }

    @Test func aLayoutItCannotBlendIsRefused() {
        let other = Self.frame(.other("yuv444p"), width: 1, height: 1, planes: [[0], [0], [0]], bytesPerRow: [1, 1, 1])
        #expect(PictureFade.faded(other, toward: 0, visibility: 0.5) == nil)
    }
}
