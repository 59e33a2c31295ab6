/// One writable plane of memory the caller owns (a mapped scanout buffer).
///
/// `@unchecked Sendable`: the memory belongs to an output's buffer pool; it
/// is written by the presenter thread only, between `nextTarget` and `present`.
public struct MutableImagePlane: @unchecked Sendable {
    public let base: UnsafeMutableRawPointer
    /// Bytes from the start of one row to the next (the pitch), >= the row's payload.
    public let bytesPerRow: Int
    /// Rows the memory holds; conversion refuses planes shorter than the picture needs.
    public let rows: Int

    public init(base: UnsafeMutableRawPointer, bytesPerRow: Int, rows: Int) {
        self.base = base
        self.bytesPerRow = bytesPerRow
        self.rows = rows
    }
}

/// Where the presenter draws the next picture for an output that owns its
/// buffers (KMS): planes already offset to the picture's rectangle, so the
/// conversion (format and size) writes straight into scanout memory.
public struct RenderTarget: Sendable {
    /// The output's own identifier for the buffer.
    public let buffer: Int
    public let planes: [MutableImagePlane]
    public let format: PixelFormat
    /// The picture's size inside the buffer, after gravity.
    public let width: Int
    public let height: Int
    /// The part of the frame to draw (x, y, width, height in frame pixels);
    /// nil for all of it.
    public let crop: (x: Int, y: Int, width: Int, height: Int)?
    /// For a YUV buffer, the range and matrix the display reads it with; the
    /// converter writes those. Nil for RGB.
    public let colour: ColourDescription?

    public init(buffer: Int, planes: [MutableImagePlane], format: PixelFormat, width: Int, height: Int,
                crop: (x: Int, y: Int, width: Int, height: Int)? = nil, colour: ColourDescription? = nil) {
        self.crop = crop
        self.colour = colour
        self.buffer = buffer
        self.planes = planes
        self.format = format
        self.width = width
        self.height = height
    }
}

/// A video output that owns a display's scanout buffers (KMS): the presenter
/// renders software frames straight into them (one copy from decoded frame to
/// scanout), hands it dmabuf frames it can scan out as they are (zero copy),
/// and lets it look after the display while nothing is shown. The presenter
/// asks for this capability once; a wrapper around such an output must
/// conform too and forward all of it.
///
/// Software frames reach it only through `nextTarget` and
/// `present(_:of:at:)`; `present(_:at:)` takes the dmabuf frames
/// `canScanOut` accepted.
///
/// Threading: as `VideoOutput`, the presenter thread only.
public protocol ScanOutOutput: VideoOutput {
    /// A free buffer for `frame` (never one that may still be scanned out).
    func nextTarget(for frame: VideoFrame) throws -> RenderTarget
    /// Shows the target the presenter has drawn `frame` into, at the first
    /// vblank at or after `target`; returns when it became visible.
    func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime

    /// Whether `present(_:at:)` can put this dmabuf frame (see
    /// `DMABufStorage`) on screen as it is, without a copy: the output imports
    /// the planes, with their modifier, and keeps `frame` alive until scanout
    /// of it ends. When false the presenter downloads the frame to CPU memory
    /// and renders it into a target. Asked once per frame.
    func canScanOut(_ frame: VideoFrame, dmabuf: DMABufDescriptor) -> Bool

    /// Called about once a second while the presenter has nothing to show
    /// (paused, finished, waiting for frames): the output keeps its last
    /// picture up, e.g. on a display that was switched off and on.
    func maintain()

    /// True when the output has lost what it showed and wants the last
    /// picture drawn again: a display that came after the start, while
    /// pictures went nowhere. Asked after `maintain`; false by default.
    var needsPicture: Bool { get }
}

extension ScanOutOutput {
    public var needsPicture: Bool { false }
}
