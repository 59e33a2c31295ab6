extension VideoFrame {
    /// FNV-1a over the visible bytes of every plane (stride padding excluded),
    /// so two decodes of the same picture match whatever their buffers' layout.
    public func checksum() -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for (index, plane) in planes.enumerated() {
            let rowBytes = min(abs(plane.bytesPerRow), visibleBytesPerRow(plane: index))
            for row in 0..<plane.rows {
                let start = plane.base + row * plane.bytesPerRow
                for byte in UnsafeRawBufferPointer(start: start, count: rowBytes) {
                    hash = (hash ^ UInt32(byte)) &* 0x0100_0193
                }
            }
        }
        return hash
    }

    /// Bytes of real pixels in one row of `plane` for the formats the
    /// pipeline knows; the whole stride for the rest.
    private func visibleBytesPerRow(plane: Int) -> Int {
        let chromaWidth = (width + 1) / 2
        switch pixelFormat {
        case .yuv420p: return plane == 0 ? width : chromaWidth
        case .nv12: return plane == 0 ? width : chromaWidth * 2
        case .yuv420p10: return (plane == 0 ? width : chromaWidth) * 2
        case .p010: return plane == 0 ? width * 2 : chromaWidth * 4
        case .xrgb8888: return width * 4
        case .rgb24: return width * 3
        case .hardware, .other: return Int.max
        }
    }
}
