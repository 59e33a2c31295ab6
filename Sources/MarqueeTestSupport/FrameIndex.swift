import MarqueeCore

/// The frame number written into the top rows of an `indexed` fixture's
/// pictures, read back from a decoded (or converted, or scaled) frame.
///
/// The bar code is 16 blocks side by side, each W/16 wide: block i is white
/// when bit i of the frame number is set, black otherwise. Each block is read
/// at its centre column, averaged over rows 4..<12 (inside the 16 bar rows,
/// away from compression ringing at the edges), as 8-bit luma.
///
/// - Returns: nil when the frame's format has no CPU-readable luma or a block
///   is neither clearly dark nor clearly bright (not a bar code).
public func frameIndex(of frame: VideoFrame) -> Int? {
    guard frame.width >= 16, frame.height >= 12, let luma = LumaReader(frame) else { return nil }
    var index = 0
    for bit in 0..<FrameBarCode.bits {
        let x = (2 * bit + 1) * frame.width / (2 * FrameBarCode.bits)
        let level = (FrameBarCode.sampleRows).reduce(0) { $0 + luma.value(x: x, y: $1) } / FrameBarCode.sampleRows.count
        switch level {
        case ..<FrameBarCode.dark: break
        case FrameBarCode.bright...: index |= 1 << bit
        default: return nil
        }
    }
    return index
}

enum FrameBarCode {
    static let bits = 16
    static let sampleRows = 4..<12
    /// Black is luma 16 and white 235 in video range (0 and 255 in RGB): a block
    /// between these is grey, which a bar code never is. Mid-grey splits them.
    static let dark = 96
    static let bright = 160
}

/// Reads 8-bit luma (or its RGB equivalent) at a pixel of any CPU format the pipeline names.
private struct LumaReader {
    let frame: VideoFrame
    let plane: ImagePlane

    init?(_ frame: VideoFrame) {
        guard let plane = frame.planes.first else { return nil }
        switch frame.pixelFormat {
        case .yuv420p, .nv12, .yuv420p10, .p010, .xrgb8888, .rgb24: break
        case .hardware, .other: return nil
        }
        self.frame = frame
        self.plane = plane
    }

    func value(x: Int, y: Int) -> Int {
        let row = plane.base + y * plane.bytesPerRow
        switch frame.pixelFormat {
        case .yuv420p, .nv12:
            return Int(row.load(fromByteOffset: x, as: UInt8.self))
        case .yuv420p10:
            // 10 significant bits in the low end of each little-endian word.
            return Int(UInt16(littleEndian: row.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))) >> 2
        case .p010:
            // 10 significant bits in the high end of each word.
            return Int(UInt16(littleEndian: row.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))) >> 8
        case .xrgb8888:
            let pixel = row + 4 * x // B, G, R, X
            return rgbLuma(r: pixel.load(fromByteOffset: 2, as: UInt8.self), g: pixel.load(fromByteOffset: 1, as: UInt8.self),
                           b: pixel.load(as: UInt8.self))
        case .rgb24:
            let pixel = row + 3 * x
            return rgbLuma(r: pixel.load(as: UInt8.self), g: pixel.load(fromByteOffset: 1, as: UInt8.self),
                           b: pixel.load(fromByteOffset: 2, as: UInt8.self))
        case .hardware, .other:
            return 0
        }
    }

    /// BT.601 weights; black and white are grey, so the weights hardly matter.
    private func rgbLuma(r: UInt8, g: UInt8, b: UInt8) -> Int {
        (299 * Int(r) + 587 * Int(g) + 114 * Int(b)) / 1000
    }
}
