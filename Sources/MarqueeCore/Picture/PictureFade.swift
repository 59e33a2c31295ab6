/// A picture part of the way to one colour: what a fade through the
/// background shows, blended in software on the CPU planes. The colour is
/// written in the picture's own terms (its YUV matrix, range and bit depth,
/// or its RGB layout), so no conversion happens on the way.
public enum PictureFade {
    /// `frame` with `visibility` of it left and the rest `rgb` (0xRRGGBB):
    /// 1 is the picture as it is, 0 all `rgb`. Each value moves toward the
    /// colour by the same fraction, so a falling `visibility` takes every
    /// pixel (and the mean brightness) one way. The result owns new planes
    /// and keeps the frame's timing and tags.
    /// Returns nil for a layout this cannot blend (a hardware surface, a
    /// format carried by name): convert the frame to one of the others first.
    public static func faded(_ frame: VideoFrame, toward rgb: UInt32, visibility: Double) -> VideoFrame? {
        guard let layout = Layout(frame, rgb: rgb) else { return nil }
        let weight = Int32((min(max(visibility, 0), 1) * 256).rounded())
        let storage = BlendedPlanes(shapedLike: frame.planes)
        for (index, plane) in storage.planes.enumerated() {
            let targets = layout.targets[index]
            if layout.wordSize == 1 {
                blendBytes(plane, frame.planes[index], targets: targets, weight: weight)
            } else {
                blendWords(plane, frame.planes[index], targets: targets, weight: weight)
            }
        }
        var result = VideoFrame(pts: frame.pts, duration: frame.duration, width: frame.width, height: frame.height,
                                pixelFormat: frame.pixelFormat, planes: storage.planes.map {
                                    ImagePlane(base: UnsafeRawPointer($0.base), bytesPerRow: $0.bytesPerRow, rows: $0.rows)
                                }, storage: storage)
        result.orientation = frame.orientation
        result.sampleAspect = frame.sampleAspect
        result.colour = frame.colour
        result.fieldOrder = frame.fieldOrder
        result.filters = frame.filters
        return result
    }

    /// Planar samples (one colour for the whole plane) in a loop the
    /// compiler vectorises; interleaved ones through one lookup table per
    /// sample of the pattern, computed once per frame.
    private static func blendBytes(_ target: MutableImagePlane, _ source: ImagePlane, targets: [Int32], weight: Int32) {
        let pattern = targets.count, count = source.bytesPerRow
        let tables = pattern == 1 ? [] : targets.flatMap { colour in (0...255).map { UInt8(truncatingIfNeeded: blend(Int32($0), colour, weight)) } }
        tables.withUnsafeBufferPointer { tables in
            for row in 0..<source.rows {
                let from = source.base.advanced(by: row * source.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let to = target.base.advanced(by: row * target.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                if pattern == 1 {
                    let colour = targets[0]
                    for column in 0..<count { to[column] = UInt8(truncatingIfNeeded: blend(Int32(from[column]), colour, weight)) }
                    continue
                }
                // Pixel by pixel: the sample's place in the pattern picks its table without a division per byte.
                var column = 0
                while column < count {
                    for sample in 0..<min(pattern, count - column) {
                        to[column + sample] = tables[sample << 8 | Int(from[column + sample])]
                    }
                    column += pattern
                }
            }
        }
    }

    private static func blendWords(_ target: MutableImagePlane, _ source: ImagePlane, targets: [Int32], weight: Int32) {
        let pattern = targets.count, count = source.bytesPerRow / 2
        for row in 0..<source.rows {
            let from = source.base.advanced(by: row * source.bytesPerRow).assumingMemoryBound(to: UInt16.self)
            let to = target.base.advanced(by: row * target.bytesPerRow).assumingMemoryBound(to: UInt16.self)
            var column = 0
            while column < count {
                for sample in 0..<min(pattern, count - column) {
                    to[column + sample] = UInt16(truncatingIfNeeded: blend(Int32(from[column + sample]), targets[sample], weight))
                }
                column += pattern
            }
        }
    }

    /// `value` moved toward `colour`, keeping `weight`/256 of the difference.
    /// The arithmetic shift rounds toward minus infinity on both sides, so
    /// the result never overshoots the colour and moves one way as the
    /// weight falls.
    @inline(__always)
    private static func blend(_ value: Int32, _ colour: Int32, _ weight: Int32) -> Int32 {
        colour &+ (((value &- colour) &* weight) >> 8)
    }

    /// The colour's value for each sample of a row's repeating pattern, per plane.
    private struct Layout {
        var targets: [[Int32]]
        var wordSize: Int

        init?(_ frame: VideoFrame, rgb: UInt32) {
            let (red, green, blue) = (Int32(rgb >> 16 & 0xff), Int32(rgb >> 8 & 0xff), Int32(rgb & 0xff))
            switch frame.pixelFormat {
            case .xrgb8888:
                (targets, wordSize) = ([[blue, green, red, 0]], 1)
            case .rgb24:
                (targets, wordSize) = ([[red, green, blue]], 1)
            case .yuv420p, .nv12, .yuv420p10, .p010:
                let matrix = frame.colour.effectiveMatrix(width: frame.width, height: frame.height)
                let yuv = YUVColour(rgb: rgb, matrix: matrix, range: frame.colour.effectiveRange,
                                    bits: frame.pixelFormat == .yuv420p || frame.pixelFormat == .nv12 ? 8 : 10)
                // P010 keeps its 10 bits at the top of each word.
                let shift: Int32 = frame.pixelFormat == .p010 ? 6 : 0
                let (y, cb, cr) = (yuv.y << shift, yuv.cb << shift, yuv.cr << shift)
                switch frame.pixelFormat {
                case .yuv420p, .yuv420p10: targets = [[y], [cb], [cr]]
                default: targets = [[y], [cb, cr]]
                }
                wordSize = frame.pixelFormat == .yuv420p || frame.pixelFormat == .nv12 ? 1 : 2
            case .hardware, .other:
                return nil
            }
            guard targets.count == frame.planes.count else { return nil }
        }
    }
}

/// An RGB colour written as Y'CbCr code values.
struct YUVColour {
    let y, cb, cr: Int32

    /// `rgb` (0xRRGGBB, full range) through `matrix`'s luma weights into
    /// codes of `bits` bits at `range` (limited: Y 16-235, C 16-240 at 8 bits).
    init(rgb: UInt32, matrix: ColourDescription.Matrix, range: ColourDescription.Range, bits: Int) {
        let (kr, kb) = switch matrix {
        case .bt709: (0.2126, 0.0722)
        case .bt2020: (0.2627, 0.0593)
        case .bt601, .unspecified: (0.299, 0.114)
        }
        let red = Double(rgb >> 16 & 0xff) / 255, green = Double(rgb >> 8 & 0xff) / 255, blue = Double(rgb & 0xff) / 255
        let luma = kr * red + (1 - kr - kb) * green + kb * blue
        let blueDifference = (blue - luma) / (2 * (1 - kb))
        let redDifference = (red - luma) / (2 * (1 - kr))
        let scale = Double(1 << (bits - 8))
        let maximum = Double((1 << bits) - 1)
        let middle = Double(1 << (bits - 1))
        func code(_ value: Double) -> Int32 { Int32(min(max(value.rounded(), 0), maximum)) }
        if range == .full {
            y = code(luma * maximum)
            cb = code(middle + blueDifference * maximum)
            cr = code(middle + redDifference * maximum)
        } else {
            y = code((16 + 219 * luma) * scale)
            cb = code((128 + 224 * blueDifference) * scale)
            cr = code((128 + 224 * redDifference) * scale)
        }
    }
}

/// The planes of a blended copy, allocated to the source's strides; the one
/// owner of that memory.
private final class BlendedPlanes: FrameStorage, @unchecked Sendable {
    // @unchecked: written once while the copy is made, read-only afterwards.
    let planes: [MutableImagePlane]

    init(shapedLike source: [ImagePlane]) {
        planes = source.map {
            MutableImagePlane(base: .allocate(byteCount: $0.bytesPerRow * $0.rows, alignment: 64), bytesPerRow: $0.bytesPerRow, rows: $0.rows)
        }
    }

    deinit { planes.forEach { $0.base.deallocate() } }
}
