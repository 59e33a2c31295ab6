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
}
