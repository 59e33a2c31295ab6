/// Turns and mirrors one image plane into another by an `Orientation`: the
/// software path for displays and files that cannot do it themselves. Works
/// on any pixel size (1 byte for a Y plane, 2 for NV12's UV pairs, 3 for
/// RGB, 4 for XRGB), so a YUV picture is turned plane by plane.
public enum PlaneTransform {
    /// Writes the `width` x `height` picture in `source` (rows `sourceStride`
    /// bytes apart) into `target` turned by `orientation`; `target` must hold
    /// the displayed size (width and height swapped for a quarter turn).
    public static func apply(_ orientation: Orientation, bytesPerPixel: Int, width: Int, height: Int,
                             from source: UnsafeRawPointer, sourceStride: Int, into target: MutableImagePlane) {
        switch bytesPerPixel {
        case 4: transform(UInt32.self, orientation, width, height, source, sourceStride, target)
        case 3: transform((UInt8, UInt8, UInt8).self, orientation, width, height, source, sourceStride, target)
        case 2: transform(UInt16.self, orientation, width, height, source, sourceStride, target)
        default: transform(UInt8.self, orientation, width, height, source, sourceStride, target)
        }
    }

    private static func transform<Pixel>(_: Pixel.Type, _ orientation: Orientation, _ width: Int, _ height: Int,
                                         _ source: UnsafeRawPointer, _ sourceStride: Int, _ target: MutableImagePlane) {
        let size = MemoryLayout<Pixel>.stride
        for y in 0..<height {
            let row = (source + y * sourceStride).assumingMemoryBound(to: Pixel.self)
            // Each source row lands on a target row or column: step through it.
            let start = orientation.map(x: 0, y: y, width: width, height: height)
            let next = width > 1 ? orientation.map(x: 1, y: y, width: width, height: height) : start
            let step = (next.y - start.y) * target.bytesPerRow + (next.x - start.x) * size
            var out = target.base + start.y * target.bytesPerRow + start.x * size
            for x in 0..<width {
                out.storeBytes(of: row[x], as: Pixel.self)
                out += step
            }
        }
    }
}
