import MarqueeCore

/// Turns an XRGB8888 picture by 90, 180 or 270 degrees clockwise, for planes
/// without a usable rotation property.
enum SoftwareRotation {
    static func rotate(_ source: UnsafeMutableRawPointer, width: Int, height: Int, by degrees: Int, into target: MutableImagePlane) {
        let pixels = source.assumingMemoryBound(to: UInt32.self)
        let stride = target.bytesPerRow / 4
        let out = target.base.assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            let row = pixels + y * width
            for x in 0..<width {
                let (tx, ty): (Int, Int) = switch degrees {
                case 90: (height - 1 - y, x)
                case 180: (width - 1 - x, height - 1 - y)
                default: (y, width - 1 - x)
                }
                out[ty * stride + tx] = row[x]
            }
        }
    }

    /// The part of the upright `width` x `height` picture that `rotate` turns
    /// into `rect` of the turned picture: where to crop before turning.
    static func uprightRect(of rect: PixelRect, width: Int, height: Int, rotatedBy degrees: Int) -> PixelRect {
        switch degrees {
        case 90: PixelRect(x: rect.y, y: height - rect.x - rect.width, width: rect.height, height: rect.width)
        case 180: PixelRect(x: width - rect.x - rect.width, y: height - rect.y - rect.height, width: rect.width, height: rect.height)
        case 270: PixelRect(x: width - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width)
        default: rect
        }
    }
}
