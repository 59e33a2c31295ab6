import MarqueeCore
import MarqueeOverlays
import Testing

/// A text wider than its rectangle is drawn smaller until all of it fits:
/// nothing is cut at the edges.
@Suite struct TextFitTests {
    @Test(arguments: [TextStyle(size: 48, outline: 0), TextStyle(size: 48, outline: 2, box: 0x203060)])
    func aTextTooWideForItsRectIsMadeSmallerNotCut(style: TextStyle) throws {
        let (width, height) = (240, 60)
        var pixels = [UInt32](repeating: 0, count: width * height)
        let overlay = try TextOverlay(text: "Grüße aus dem Foyer — Doors open 9:00", style: style)
        pixels.withUnsafeMutableBytes { bytes in
            let plane = MutableImagePlane(base: bytes.baseAddress!, bytesPerRow: width * 4, rows: height)
            _ = overlay.draw(into: plane, size: PixelSize(width: width, height: height), at: HostTime(nanoseconds: 0))
        }
        let drawn = pixels.indices.filter { pixels[$0] >> 24 != 0 }
        let columns = Set(drawn.map { $0 % width })
        #expect(drawn.count > 500, "hardly anything drawn: \(drawn.count) pixels")
        #expect(!columns.contains(0) && !columns.contains(width - 1), "the text touches the rect's left or right edge: cut")
        // Made smaller, not squeezed into a sliver: it spans most of the width.
        #expect((columns.max() ?? 0) - (columns.min() ?? 0) > width * 3 / 4)
    }
}
