import MarqueeFFmpeg

/// The presenter's blending of a fade's frames toward its colour
/// (`PictureFade`), for any software frame: a layout that is not blended
/// directly (4:2:2, 4:4:4, ...) is converted to 8-bit 4:2:0 first, which
/// costs a conversion only inside the fade.
///
/// Not thread-safe: the presenter's.
final class PictureFader {
    private let converter = PixelConverter()
    /// The colour faded through, 0xRRGGBB.
    let rgb: UInt32

    init(rgb: UInt32) { self.rgb = rgb }

    /// `frame` with `visibility` (0...1) of it left and the rest the colour.
    /// - Throws: `FFmpegError` naming the libswscale call when the conversion fails.
    func faded(_ frame: VideoFrame, visibility: Double) throws -> VideoFrame {
        if let faded = PictureFade.faded(frame, toward: rgb, visibility: visibility) { return faded }
        let planar = try converter.convert(frame, to: .yuv420p)
        guard var faded = PictureFade.faded(planar, toward: rgb, visibility: visibility) else {
            throw PlaybackError.internalState("a \(planar.pixelFormat) frame could not be faded")
        }
        // The conversion kept the frame's own matrix and range: its tags say the same, guesses included.
        faded.colour = frame.colour
        return faded
    }
}
