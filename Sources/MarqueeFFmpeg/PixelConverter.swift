import CFFmpeg
import CMarqueeShims
import MarqueeCore

/// Converts software frames between pixel formats and sizes with libswscale.
///
/// The scaler is cached for the last (source size, source format, target size,
/// target format) and rebuilt when any of them changes, so a stream that
/// switches resolution mid-way keeps converting.
///
/// Colour: YUV is read with the frame's matrix and range as tagged
/// (`VideoFrame.colour`); untagged, BT.601 for SD and BT.709 for HD (wider
/// than 1024 or taller than 576), the guess players make, and limited range.
/// RGB targets are full range; a YUV target is written with the matrix and
/// range asked for (what a display's plane reads), else the source's.
///
/// Not thread-safe: one converter per thread (the presenter's, the writer's).
public final class PixelConverter {
    private var context: OpaquePointer?
    private var key: Key?
    /// Scaling filter: bilinear is the cheap one that does not alias on
    /// downscale; SWS_ACCURATE_RND would cost the fast paths on small CPUs.
    private let flags = SWS_BILINEAR

    private struct Key: Equatable {
        var sourceWidth, sourceHeight, targetWidth, targetHeight: Int
        var sourceFormat, targetFormat: AVPixelFormat
        var matrix: ColourDescription.Matrix
        var fullRange: Bool
        /// For a YUV target: its matrix and range.
        var targetMatrix: ColourDescription.Matrix
        var targetFullRange: Bool
    }

    public init() {}

    deinit { sws_freeContext(context) }

    /// `frame` in `format`, scaled to `width` x `height` pixels (nil keeps the
    /// frame's size). A frame already in that format and size is returned as it
    /// is, without a copy; otherwise the result owns new memory (an AVFrame)
    /// and keeps the source's pts and duration.
    /// - Throws: `FFmpegError` naming the failed call (`sws_init_context`
    ///   for a format libswscale cannot convert, e.g. a hardware surface).
    /// - Parameter colour: for a YUV target, the range and matrix to write
    ///   (nil: the frame's own); the result is tagged with what it holds.
    public func convert(_ frame: VideoFrame, to format: PixelFormat, width: Int? = nil, height: Int? = nil,
                        colour: ColourDescription? = nil) throws(FFmpegError) -> VideoFrame {
        let width = width ?? frame.width, height = height ?? frame.height
        if frame.pixelFormat == format && frame.width == width && frame.height == height
            && Self.keepsColour(of: frame, colour, width: width, height: height) { return frame }
        let target = try Self.softwareFormat(format, "av_frame_get_buffer")
        let storage = try AVFrameStorage(width: width, height: height, format: target)
        let planes = storage.planes.map {
            MutableImagePlane(base: UnsafeMutableRawPointer(mutating: $0.base), bytesPerRow: $0.bytesPerRow, rows: $0.rows)
        }
        try scale(frame, into: planes, format: target, width: width, height: height, colour: colour)
        var converted = storage.videoFrame(pts: frame.pts, duration: frame.duration)
        converted.colour = Self.isYUV(target) ? Self.yuvTarget(of: frame, colour, width: width, height: height)
            : ColourDescription(range: .full, matrix: .unspecified)
        return converted
    }

    /// What a YUV target holds: what was asked for; else the source's range
    /// and matrix (a YUV source), or limited range and the matrix for its size
    /// (an RGB source).
    private static func yuvTarget(of frame: VideoFrame, _ colour: ColourDescription?, width: Int, height: Int) -> ColourDescription {
        if let colour { return ColourDescription(range: colour.effectiveRange, matrix: colour.effectiveMatrix(width: width, height: height)) }
        guard isYUV(frame.pixelFormat.libav) else {
            return ColourDescription(range: .limited, matrix: ColourDescription.unspecified.effectiveMatrix(width: width, height: height))
        }
        return ColourDescription(range: frame.colour.effectiveRange, matrix: frame.colour.effectiveMatrix(width: frame.width, height: frame.height))
    }

    /// Whether writing `frame` with `colour` leaves its values as they are.
    private static func keepsColour(of frame: VideoFrame, _ colour: ColourDescription?, width: Int, height: Int) -> Bool {
        guard let colour else { return true }
        return colour.effectiveRange == frame.colour.effectiveRange
            && colour.effectiveMatrix(width: width, height: height) == frame.colour.effectiveMatrix(width: frame.width, height: frame.height)
    }

    /// Converts `frame` straight into caller-owned planes (one copy, e.g. into a
    /// mapped scanout buffer) of a `width` x `height` picture in `format`; nil
    /// keeps the frame's size. A frame already in that format and size is copied
    /// row by row.
    /// - Throws: `FFmpegError` with code EINVAL when `planes` are too few, too
    ///   narrow or too short for the picture, or naming the libswscale call that failed.
    /// - Parameter colour: for a YUV target, the range and matrix to write
    ///   (nil: the frame's own).
    public func convert(_ frame: VideoFrame, into planes: [MutableImagePlane], format: PixelFormat,
                        width: Int? = nil, height: Int? = nil, colour: ColourDescription? = nil) throws(FFmpegError) {
        let width = width ?? frame.width, height = height ?? frame.height
        let target = try Self.softwareFormat(format, "sws_scale")
        try Self.validate(planes, format: target, width: width, height: height)
        if frame.pixelFormat == format && frame.width == width && frame.height == height
            && Self.keepsColour(of: frame, colour, width: width, height: height) {
            try copy(frame, into: planes, format: target)
        } else {
            try scale(frame, into: planes, format: target, width: width, height: height, colour: colour)
        }
    }

    private func scale(_ frame: VideoFrame, into planes: [MutableImagePlane], format: AVPixelFormat,
                       width: Int, height: Int, colour: ColourDescription? = nil) throws(FFmpegError) {
        let source = try Self.softwareFormat(frame.pixelFormat, "sws_init_context")
        // libswscale reads every plane of the format: a missing one would be a NULL read.
        guard frame.planes.count >= Int(av_pix_fmt_count_planes(source)) else {
            throw FFmpegError(code: marquee_averror(EINVAL), call: "sws_scale",
                              message: "\(frame.pixelFormat) frame has \(frame.planes.count) of \(av_pix_fmt_count_planes(source)) planes")
        }
        let matrix = frame.colour.effectiveMatrix(width: frame.width, height: frame.height)
        let fullRange = frame.colour.effectiveRange == .full
        let target = Self.yuvTarget(of: frame, colour, width: width, height: height)
        try configure(Key(sourceWidth: frame.width, sourceHeight: frame.height, targetWidth: width,
                          targetHeight: height, sourceFormat: source, targetFormat: format,
                          matrix: matrix, fullRange: fullRange,
                          targetMatrix: target.matrix, targetFullRange: target.range == .full))
        var sourcePointers = [UnsafePointer<UInt8>?](repeating: nil, count: 4)
        var sourceStrides = [Int32](repeating: 0, count: 4)
        for (index, plane) in frame.planes.prefix(4).enumerated() {
            sourcePointers[index] = plane.base.assumingMemoryBound(to: UInt8.self)
            sourceStrides[index] = Int32(plane.bytesPerRow)
        }
        var targetPointers = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var targetStrides = [Int32](repeating: 0, count: 4)
        for (index, plane) in planes.prefix(4).enumerated() {
            targetPointers[index] = plane.base.assumingMemoryBound(to: UInt8.self)
            targetStrides[index] = Int32(plane.bytesPerRow)
        }
        let rows = sws_scale(context, sourcePointers, sourceStrides, 0, Int32(frame.height), targetPointers, targetStrides)
        try check(rows, "sws_scale")
        // sws_scale reports the rows it wrote; fewer than the picture means it gave up part-way.
        guard rows == Int32(height) else {
            throw FFmpegError(code: marquee_averror(EINVAL), call: "sws_scale",
                              message: "wrote \(rows) of \(height) rows converting \(frame.pixelFormat) to \(PixelFormat(libav: format))")
        }
    }

    /// Rebuilds the scaler when the conversion changes and sets its colour
    /// matrices. The ranges are options given before the scaler is set up:
    /// set afterwards (sws_setColorspaceDetails), they leave in place the
    /// plain copy libswscale picks between two YUV formats of one size, and
    /// a full-range picture would reach a limited-range target unconverted.
    private func configure(_ wanted: Key) throws(FFmpegError) {
        guard wanted != key else { return }
        key = nil
        sws_freeContext(context)
        context = nil
        let sourceYUV = Self.isYUV(wanted.sourceFormat), targetYUV = Self.isYUV(wanted.targetFormat)
        // An RGB side is full range; its matrix entry is unused.
        let sourceRange: Int32 = sourceYUV ? (wanted.fullRange ? 1 : 0) : 1
        let targetRange: Int32 = targetYUV ? (wanted.targetFullRange ? 1 : 0) : 1
        guard let created = sws_alloc_context() else { throw .outOfMemory("sws_alloc_context") }
        context = created
        let options: [(String, Int64)] = [
            ("srcw", Int64(wanted.sourceWidth)), ("srch", Int64(wanted.sourceHeight)), ("src_format", Int64(wanted.sourceFormat.rawValue)),
            ("dstw", Int64(wanted.targetWidth)), ("dsth", Int64(wanted.targetHeight)), ("dst_format", Int64(wanted.targetFormat.rawValue)),
            ("sws_flags", Int64(flags)), ("src_range", Int64(sourceRange)), ("dst_range", Int64(targetRange)),
        ]
        for (name, value) in options {
            try check(av_opt_set_int(UnsafeMutableRawPointer(created), name, value, 0), "av_opt_set_int(\(name))")
        }
        let code = sws_init_context(created, nil, nil)
        guard code >= 0 else {
            throw FFmpegError(code: code, call: "sws_init_context",
                              message: "cannot convert \(PixelFormat(libav: wanted.sourceFormat)) \(wanted.sourceWidth)x\(wanted.sourceHeight) "
                                     + "to \(PixelFormat(libav: wanted.targetFormat)) \(wanted.targetWidth)x\(wanted.targetHeight)")
        }
        if sourceYUV || targetYUV {
            // brightness 0, contrast and saturation 1.0 in 16.16 fixed point: only the matrices and ranges change.
            try check(sws_setColorspaceDetails(created, Self.coefficients(wanted.matrix), sourceRange,
                                               Self.coefficients(wanted.targetMatrix), targetRange,
                                               0, 1 << 16, 1 << 16),
                      "sws_setColorspaceDetails")
        }
        key = wanted
    }

    private func copy(_ frame: VideoFrame, into planes: [MutableImagePlane], format: AVPixelFormat) throws(FFmpegError) {
        let needed = Int(av_pix_fmt_count_planes(format))
        guard frame.planes.count == needed else {
            throw FFmpegError(code: marquee_averror(EINVAL), call: "av_image_copy_plane",
                              message: "frame has \(frame.planes.count) planes, \(frame.pixelFormat) has \(needed)")
        }
        for (index, (source, target)) in zip(frame.planes, planes).enumerated() {
            let rowBytes = av_image_get_linesize(format, Int32(frame.width), Int32(index))
            try check(rowBytes, "av_image_get_linesize")
            av_image_copy_plane(target.base.assumingMemoryBound(to: UInt8.self), Int32(target.bytesPerRow),
                                source.base.assumingMemoryBound(to: UInt8.self), Int32(source.bytesPerRow),
                                rowBytes, Int32(min(source.rows, target.rows)))
        }
    }

    /// Refuses caller planes that would make libswscale write out of bounds.
    private static func validate(_ planes: [MutableImagePlane], format: AVPixelFormat, width: Int, height: Int) throws(FFmpegError) {
        let needed = Int(av_pix_fmt_count_planes(format))
        func refuse(_ message: String) -> FFmpegError {
            FFmpegError(code: marquee_averror(EINVAL), call: "sws_scale",
                        message: "destination for \(PixelFormat(libav: format)) \(width)x\(height): \(message)")
        }
        guard planes.count >= needed else { throw refuse("\(planes.count) planes given, \(needed) needed") }
        let chromaShift = Int(av_pix_fmt_desc_get(format)?.pointee.log2_chroma_h ?? 0)
        for index in 0..<needed {
            let rowBytes = Int(av_image_get_linesize(format, Int32(width), Int32(index)))
            let rows = index == 1 || index == 2 ? (height + (1 << chromaShift) - 1) >> chromaShift : height
            guard planes[index].bytesPerRow >= rowBytes else {
                throw refuse("plane \(index) rows are \(planes[index].bytesPerRow) bytes, \(rowBytes) needed")
            }
            guard planes[index].rows >= rows else {
                throw refuse("plane \(index) has \(planes[index].rows) rows, \(rows) needed")
            }
        }
    }

    private static func softwareFormat(_ format: PixelFormat, _ call: String) throws(FFmpegError) -> AVPixelFormat {
        let libav = format.libav
        guard libav != AV_PIX_FMT_NONE, let descriptor = av_pix_fmt_desc_get(libav),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0 else {
            throw FFmpegError(code: marquee_averror(EINVAL), call: call,
                              message: "\(format) is not a software pixel format")
        }
        return libav
    }

    private static func coefficients(_ matrix: ColourDescription.Matrix) -> UnsafePointer<Int32>! {
        let space = switch matrix {
        case .bt709: SWS_CS_ITU709
        case .bt2020: SWS_CS_BT2020
        case .bt601, .unspecified: SWS_CS_ITU601
        }
        return sws_getCoefficients(space)
    }

    private static func isYUV(_ format: AVPixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 && descriptor.pointee.nb_components >= 3
    }
}
