extension VideoFrame {
    /// The `width` x `height` part of the picture at (`x`, `y`), sharing this
    /// frame's memory (no copy). Offsets are rounded down to even pixels so
    /// 4:2:0 chroma stays aligned. Nil for formats whose layout it does not know.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> VideoFrame? {
        let x = max(0, min(x, self.width - 1)) & ~1, y = max(0, min(y, self.height - 1)) & ~1
        let width = min(width, self.width - x), height = min(height, self.height - y)
        let bytesPerPixel: [Int]
        switch pixelFormat {
        case .yuv420p: bytesPerPixel = [1, 1, 1]
        case .yuv420p10: bytesPerPixel = [2, 2, 2]
        case .nv12: bytesPerPixel = [1, 2]
        case .p010: bytesPerPixel = [2, 4]
        case .xrgb8888: bytesPerPixel = [4]
        case .rgb24: bytesPerPixel = [3]
        case .hardware, .other: return nil
        }
        guard planes.count >= bytesPerPixel.count else { return nil }
        let subsampled = bytesPerPixel.count > 1
        let cropped = planes.prefix(bytesPerPixel.count).enumerated().map { index, plane in
            let chroma = subsampled && index > 0
            let column = chroma ? x / 2 : x, row = chroma ? y / 2 : y
            return ImagePlane(base: plane.base + row * plane.bytesPerRow + column * bytesPerPixel[index],
                              bytesPerRow: plane.bytesPerRow, rows: chroma ? (height + 1) / 2 : height)
        }
        var frame = VideoFrame(pts: pts, duration: duration, width: width, height: height, pixelFormat: pixelFormat,
                               planes: cropped, storage: storage)
        frame.orientation = orientation
        frame.sampleAspect = sampleAspect
        frame.colour = colour
        return frame
    }
}
