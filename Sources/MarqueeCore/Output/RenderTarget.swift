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

    public init(buffer: Int, planes: [MutableImagePlane], format: PixelFormat, width: Int, height: Int,
                crop: (x: Int, y: Int, width: Int, height: Int)? = nil) {
        self.crop = crop
        self.buffer = buffer
        self.planes = planes
        self.format = format
        self.width = width
        self.height = height
    }
}

/// A video output whose buffers the presenter renders into directly (one copy
/// from decoded frame to scanout), instead of handing it a frame.
///
/// A dmabuf frame the output says it can scan out (`canScanOut`) skips the
/// render target and goes to `present(_:at:)` as it is.
///
/// Threading: as `VideoOutput`, the presenter thread only.
public protocol RenderTargetOutput: VideoOutput {
    /// A free buffer for `frame` (never one that may still be scanned out).
    func nextTarget(for frame: VideoFrame) throws -> RenderTarget
    /// Shows the target the presenter has drawn `frame` into, at the first
    /// vblank at or after `target`; returns when it became visible.
    func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime
}
