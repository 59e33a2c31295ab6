import MarqueeFFmpeg

/// A picture of the screen: a frame (`Player.pictureOnScreen()`) drawn on
/// a scan-out output the way the presenter draws it (a display's own
/// composition: gravity, pixel aspect, orientation, borders), and a
/// composed screen encoded as PNG. With `MemoryDisplay` (MarqueeKMS) at the
/// display's size and settings, that is what the display shows.
///
/// Not thread-safe: one capture at a time per value; each owns its converter and encoder.
public final class ScreenCapture {
    private let converter = PixelConverter()
    private let encoder: PNGWriter

    /// - Throws: `FFmpegError` when the PNG encoder cannot be set up.
    public init() throws {
        encoder = try PNGWriter()
    }

    /// Draws `frame` on `output` as the presenter would: a hardware frame
    /// downloaded first, converted into the output's render target, then
    /// presented at `time`.
    /// - Throws: the download's, the output's or the converter's error.
    public func draw(_ frame: VideoFrame, on output: any ScanOutOutput, at time: HostTime) throws {
        var picture = frame
        if let hardware = picture.storage as? any DMABufStorage { picture = try hardware.download(picture) }
        _ = try output.render(picture, with: converter, at: time)
    }

    /// PNG bytes of any software frame (an `ImageGenerator` picture).
    /// - Throws: `FFmpegError` from the converter or the encoder.
    public func png(of frame: VideoFrame) throws -> [UInt8] {
        try encoder.encode(frame)
    }

    /// PNG bytes of an RGB picture (`width` x `height`, 3 bytes a pixel, rows
    /// packed), scaled to `scaledWidth` pixels across (the height in
    /// proportion) when given.
    /// - Throws: `FFmpegError` from the scaler or the encoder.
    public func png(rgb: [UInt8], width: Int, height: Int, scaledWidth: Int? = nil) throws -> [UInt8] {
        precondition(rgb.count == width * height * 3, "an RGB picture of \(width)x\(height) is \(width * height * 3) bytes")
        let storage = RGBPicture(bytes: rgb)
        let picture = storage.frame(width: width, height: height)
        guard let scaledWidth, scaledWidth != width else { return try withExtendedLifetime(storage) { try encoder.encode(picture) } }
        let scaledHeight = max(1, (height * scaledWidth + width / 2) / width)
        let scaled = try converter.convert(picture, to: .rgb24, width: scaledWidth, height: scaledHeight)
        return try withExtendedLifetime(storage) { try encoder.encode(scaled) }
    }
}

/// Packed RGB bytes as a frame's one plane.
private final class RGBPicture: FrameStorage, @unchecked Sendable {
    // @unchecked: written once here, read-only after.
    private let bytes: UnsafeMutableBufferPointer<UInt8>

    init(bytes: [UInt8]) {
        self.bytes = .allocate(capacity: bytes.count)
        _ = self.bytes.initialize(from: bytes)
    }

    deinit { bytes.deallocate() }

    func frame(width: Int, height: Int) -> VideoFrame {
        var frame = VideoFrame(pts: .zero, duration: .zero, width: width, height: height, pixelFormat: .rgb24,
                               planes: [ImagePlane(base: UnsafeRawPointer(bytes.baseAddress!), bytesPerRow: width * 3, rows: height)],
                               storage: self)
        frame.colour = ColourDescription(range: .full, matrix: .unspecified)
        return frame
    }
}

/// What `Player.pictureOnScreen()` answers: the picture, and the size of
/// the screen it was drawn on (the display's mode; nil for an output
/// without a screen, such as files).
public struct PictureOnScreen: Sendable {
    public let frame: VideoFrame
    public let screenSize: PixelSize?
}
