import CFFmpeg
import MarqueeCore

// How an AVFrame becomes a `VideoFrame`, shared by the decoder (frames that
// reference libavcodec's buffers) and the pixel converter (frames with buffers
// of their own).
extension AVFrameStorage {
    /// A frame with freshly allocated, uninitialised buffers for a picture of
    /// `width` x `height` pixels in `format` (av_frame_get_buffer picks the
    /// alignment the CPU's SIMD needs).
    convenience init(width: Int, height: Int, format: AVPixelFormat) throws(FFmpegError) {
        guard let scratch = av_frame_alloc() else { throw .outOfMemory("av_frame_alloc") }
        defer {
            // The scratch frame only carried the buffers into `self`, which holds its own reference.
            var doomed: UnsafeMutablePointer<AVFrame>? = scratch
            av_frame_free(&doomed)
        }
        scratch.pointee.width = Int32(width)
        scratch.pointee.height = Int32(height)
        scratch.pointee.format = format.rawValue
        try check(av_frame_get_buffer(scratch, 0), "av_frame_get_buffer")
        try self.init(referencing: scratch)
    }

    /// The frame's CPU-visible planes; empty for hardware surfaces.
    var planes: [ImagePlane] {
        let owned = frame.pointee
        let format = AVPixelFormat(owned.format)
        guard let descriptor = av_pix_fmt_desc_get(format),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0 else { return [] }
        let height = Int(owned.height)
        let count = Int(av_pix_fmt_count_planes(format))
        let chromaShift = Int(descriptor.pointee.log2_chroma_h)
        return withUnsafeBytes(of: owned.data) { data in
            withUnsafeBytes(of: owned.linesize) { linesize in
                (0..<count).compactMap { index -> ImagePlane? in
                    let base = data.load(fromByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                         as: UnsafeMutablePointer<UInt8>?.self)
                    let stride = linesize.load(fromByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self)
                    guard let base else { return nil }
                    // Planes 1 and 2 of a YUV format are chroma (the interleaved UV of NV12 is plane 1);
                    // odd heights round up, as libav allocates them.
                    let isChroma = (index == 1 || index == 2) && descriptor.pointee.nb_components >= 3
                    let rows = isChroma ? (height + (1 << chromaShift) - 1) >> chromaShift : height
                    return ImagePlane(base: UnsafeRawPointer(base), bytesPerRow: Int(stride), rows: rows)
                }
            }
        }
    }

    /// A `VideoFrame` over this storage's planes, which it keeps alive.
    func videoFrame(pts: MediaTime, duration: MediaTime) -> VideoFrame {
        let owned = frame.pointee
        return VideoFrame(pts: pts, duration: duration, width: Int(owned.width), height: Int(owned.height),
                          pixelFormat: PixelFormat(libav: AVPixelFormat(owned.format)),
                          planes: planes, storage: self)
    }
}
