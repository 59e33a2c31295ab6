import MarqueeCore
import Synchronization

/// Text over the video (`kind = "text"`, and `show-text`): drawn by libass
/// once, and again when it is changed.
///
/// Threading: `text` from any thread; `draw` on the display's.
public final class TextOverlay: OverlayContent, @unchecked Sendable {
    // @unchecked: `renderer` is the display thread's alone; `state` is a Mutex.
    private let renderer: ASSRenderer
    private let state: Mutex<(text: String, until: HostTime?)>
    public let style: TextStyle

    public init(text: String, style: TextStyle) throws(OverlayError) {
        renderer = try ASSRenderer()
        state = Mutex((text, nil))
        self.style = style
    }

    /// The size `text` takes in `style` at its full size, on one line per
    /// line it has: an anchored text's rectangle.
    public static func measure(_ text: String, style: TextStyle) throws(OverlayError) -> PixelSize {
        let canvas = PixelSize(width: 8192, height: 4096)
        var style = style
        style.alignment = 7
        guard let extent = try ASSRenderer().extent(of: style.script(text, frame: canvas, fontSize: style.size), size: canvas) else {
            return PixelSize(width: 2, height: 2)
        }
        // Even, as a layer's rectangle is made.
        return PixelSize(width: (extent.x + extent.width + 3) & ~1, height: (extent.y + extent.height + 3) & ~1)
    }

    /// Takes effect when the display draws it again (`DisplayLayer.redraw`).
    public var text: String {
        get { state.withLock { $0.text } }
        set { state.withLock { $0 = (newValue, nil) } }
    }

    /// `text` until `until` (the display draws nothing from then on), as
    /// `show-text` shows it; takes effect when the display draws it again.
    public func show(_ text: String, until: HostTime) {
        state.withLock { $0 = (text, until) }
    }

    public func draw(into plane: MutableImagePlane, size: PixelSize, at time: HostTime) -> HostTime? {
        let (text, until) = state.withLock { $0 }
        if let until, until <= time { return nil }
        renderer.drawFitted(text, style: style, into: plane, size: size)
        return until
    }
}

extension ASSRenderer {
    /// `text` in `style` inside `size`, its font made smaller until it fits.
    /// A script libass cannot read draws nothing (the text is ours, escaped).
    func drawFitted(_ text: String, style: TextStyle, into plane: MutableImagePlane, size: PixelSize) {
        var fontSize = style.size
        // Measured on a canvas four times the rect: libass cuts what it draws to its frame.
        let canvas = PixelSize(width: size.width * 4, height: size.height * 4)
        for _ in 0..<4 {
            guard let extent = try? extent(of: style.script(text, frame: canvas, fontSize: fontSize), size: canvas) else { return }
            let fits = min(Double(size.width) / Double(extent.width), Double(size.height) / Double(extent.height))
            if fits >= 1 { break }
            fontSize *= min(fits, 0.98)
        }
        try? draw(style.script(text, frame: size, fontSize: fontSize), into: plane, size: size)
    }
}
