import MarqueeCore
import MarqueeFFmpeg

/// An item's captions drawn over its pictures: a subtitle track read whole
/// (`SubtitleReader`), kept in libass, and drawn at each frame's item time
/// into the picture's place in the output's buffer, so they follow seeks,
/// loops and rates as the frames do.
///
/// Threading: made on any thread; `draw` on one thread at a time (the presenter's).
public final class CaptionRenderer: @unchecked Sendable {
    // @unchecked: libass is used by `draw` alone, on one thread at a time.
    private let renderer: ASSRenderer
    private let track: ASSTrack
    public let script: SubtitleScript

    public init(script: SubtitleScript) throws(OverlayError) {
        renderer = try ASSRenderer()
        track = try renderer.makeTrack(script)
        self.script = script
    }

    /// Draws the cues up at `milliseconds` of the item over the picture in
    /// `plane` (`size` pixels, XRGB8888 or premultiplied ARGB8888). The
    /// caller asks `script.hasCue(at:)` first (the presenter does, to know
    /// whether the frame can be scanned out as decoded).
    public func draw(into plane: MutableImagePlane, size: PixelSize, at milliseconds: Int64) {
        renderer.draw(track, into: plane, size: size, at: milliseconds)
    }
}
