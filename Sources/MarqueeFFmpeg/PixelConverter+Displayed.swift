import CFFmpeg
import MarqueeCore

extension PixelConverter {
    /// `frame` as a screen shows it, in `format`: stretched by its pixel
    /// aspect (`iw*sar` x `ih`, as ffmpeg's scale filter writes it), then
    /// turned and mirrored by its orientation. For outputs that write
    /// pictures rather than scan them out (files, screenshots).
    /// - Parameter colour: for a YUV format, the range and matrix to write (nil: the frame's).
    /// - Throws: `FFmpegError` naming the call that failed.
    public func displayed(_ frame: VideoFrame, as format: PixelFormat,
                          colour: ColourDescription? = nil) throws(FFmpegError) -> VideoFrame {
        var width = frame.width
        if abs(frame.sampleAspect - 1) > 0.001 {
            width = max(2, Int((Double(frame.width) * frame.sampleAspect / 2).rounded()) * 2)
        }
        let scaled = try convert(frame, to: format, width: width, height: frame.height, colour: colour)
        let orientation = frame.orientation
        guard !orientation.isUpright else { return scaled }
        let target = format.libav
        let (turnedWidth, turnedHeight) = orientation.swapsAxes ? (scaled.height, scaled.width) : (scaled.width, scaled.height)
        let storage = try AVFrameStorage(width: turnedWidth, height: turnedHeight, format: target)
        let chromaShift = Int(av_pix_fmt_desc_get(target)?.pointee.log2_chroma_w ?? 0)
        withExtendedLifetime(scaled) {
            for (index, (source, plane)) in zip(scaled.planes, storage.planes).enumerated() {
                let subsampled = index > 0 && scaled.planes.count > 1
                let planeWidth = subsampled ? (scaled.width + (1 << chromaShift) - 1) >> chromaShift : scaled.width
                let rowBytes = Int(av_image_get_linesize(target, Int32(scaled.width), Int32(index)))
                PlaneTransform.apply(orientation, bytesPerPixel: max(1, rowBytes / max(planeWidth, 1)),
                                     width: planeWidth, height: source.rows, from: source.base, sourceStride: source.bytesPerRow,
                                     into: MutableImagePlane(base: UnsafeMutableRawPointer(mutating: plane.base),
                                                             bytesPerRow: plane.bytesPerRow, rows: plane.rows))
            }
        }
        var turned = storage.videoFrame(pts: frame.pts, duration: frame.duration)
        turned.colour = scaled.colour
        return turned
    }
}
