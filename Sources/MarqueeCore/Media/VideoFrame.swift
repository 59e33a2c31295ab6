/// Pixel layouts the pipeline distinguishes. Everything else a decoder can
/// produce is carried by name and converted before it reaches an output.
public enum PixelFormat: Sendable, Hashable, CustomStringConvertible {
    /// Planar 8-bit 4:2:0 (Y, U, V).
    case yuv420p
    /// Y plane then interleaved UV, 8-bit 4:2:0.
    case nv12
    /// 10-bit 4:2:0 in 16-bit little-endian words, planar.
    case yuv420p10
    /// 10-bit 4:2:0, Y then interleaved UV, in the high bits of 16-bit words.
    case p010
    /// 32-bit B, G, R, X bytes in memory: DRM's XRGB8888 on little-endian machines.
    case xrgb8888
    /// Packed R, G, B bytes.
    case rgb24
    /// A hardware surface (VA-API, DRM PRIME) that has no CPU-visible planes.
    case hardware(String)
    case other(String)

    public var description: String {
        switch self {
        case .yuv420p: "yuv420p"
        case .nv12: "nv12"
        case .yuv420p10: "yuv420p10le"
        case .p010: "p010le"
        case .xrgb8888: "bgr0"
        case .rgb24: "rgb24"
        case .hardware(let name), .other(let name): name
        }
    }
}

/// One image plane of a decoded frame.
///
/// `@unchecked Sendable`: the bytes are written once by the decoder and only
/// read afterwards; the frame's `storage` keeps them alive.
public struct ImagePlane: @unchecked Sendable {
    public let base: UnsafeRawPointer
    public let bytesPerRow: Int
    public let rows: Int

    public init(base: UnsafeRawPointer, bytesPerRow: Int, rows: Int) {
        self.base = base
        self.bytesPerRow = bytesPerRow
        self.rows = rows
    }
}

/// The owner of a frame's memory (an AVFrame reference, a mapped buffer).
/// Frames share it; the memory goes when the last frame holding it does.
public protocol FrameStorage: AnyObject, Sendable {}

/// A decoded picture on its way to a `VideoOutput`.
public struct VideoFrame: Sendable {
    /// Presentation time on the item's timeline.
    public var pts: MediaTime
    /// How long the frame is meant to stay up at rate 1.
    public var duration: MediaTime
    public let width: Int
    public let height: Int
    public let pixelFormat: PixelFormat
    public let planes: [ImagePlane]
    public let storage: any FrameStorage
    /// How the picture is turned (and mirrored) for display: the frame's
    /// display orientation SEI, else its track's display matrix.
    public var orientation = Orientation.upright
    /// Sample (pixel) aspect ratio, width over height; 1 for square pixels:
    /// the decoder's (the codec's VUI), else the container's.
    public var sampleAspect: Double = 1
    /// Range and matrix of the YUV values, as the frame is tagged.
    public var colour = ColourDescription.unspecified
    /// How the picture's lines were scanned: the frame's interlaced flag,
    /// else its stream's field order; progressive once deinterlaced.
    public var fieldOrder = FieldOrder.progressive
    /// What the player did to the picture after decoding it.
    public var filters = PictureFilters.none

    public init(pts: MediaTime, duration: MediaTime, width: Int, height: Int,
                pixelFormat: PixelFormat, planes: [ImagePlane], storage: any FrameStorage) {
        self.pts = pts
        self.duration = duration
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.planes = planes
        self.storage = storage
    }
}
