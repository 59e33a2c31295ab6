/// What an overlay shows over the video (a text, a clock, a ticker, a
/// logo), drawn by the display that holds it, on its own thread, when it
/// changes: the content says when that is, so a display wakes for an
/// overlay only then (a clock once a second or a minute, a ticker every
/// vblank, a logo once).
///
/// Threading: `draw` on the display's thread only.
public protocol OverlayContent: AnyObject, Sendable {
    /// Draws the content as it is at `time` into `plane`: `size` pixels of
    /// premultiplied ARGB8888 (DRM's byte order), cleared to transparent.
    /// Returns when it next looks different; nil: not until its owner
    /// asks the display to draw it again (new text).
    func draw(into plane: MutableImagePlane, size: PixelSize, at time: HostTime) -> HostTime?
}
