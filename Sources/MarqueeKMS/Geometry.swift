import MarqueeCore

/// Where a picture goes on the screen and which part of it is shown.
public struct Placement: Sendable, Equatable {
    /// The part of the (rotated) picture shown, in picture pixels.
    public let source: PixelRect
    /// Where it is drawn, in screen pixels.
    public let destination: PixelRect

    /// Places a `width` x `height` picture (already rotated, and with its
    /// sample aspect ratio `aspect` = SAR) on a `screenWidth` x `screenHeight` screen.
    public static func fit(width: Int, height: Int, sampleAspect aspect: Double = 1, screenWidth: Int, screenHeight: Int,
                           gravity: VideoGravity) -> Placement {
        let full = PixelRect(x: 0, y: 0, width: width, height: height)
        let screen = PixelRect(x: 0, y: 0, width: screenWidth, height: screenHeight)
        guard width > 0, height > 0, screenWidth > 0, screenHeight > 0 else { return Placement(source: full, destination: screen) }
        let pictureAspect = Double(width) * aspect / Double(height)
        let screenAspect = Double(screenWidth) / Double(screenHeight)
        switch gravity {
        case .resize:
            return Placement(source: full, destination: screen)
        case .resizeAspect:
            // Even sizes and offsets: 4:2:0 targets cannot start or end on an odd pixel.
            if pictureAspect > screenAspect {
                let h = even(Double(screenWidth) / pictureAspect)
                return Placement(source: full, destination: PixelRect(x: 0, y: offset(Double(screenHeight - h) / 2), width: screenWidth, height: h))
            }
            let w = even(Double(screenHeight) * pictureAspect)
            return Placement(source: full, destination: PixelRect(x: offset(Double(screenWidth - w) / 2), y: 0, width: w, height: screenHeight))
        case .resizeAspectFill:
            if pictureAspect > screenAspect {
                let visible = even(Double(width) * screenAspect / pictureAspect)
                return Placement(source: PixelRect(x: offset(Double(width - visible) / 2), y: 0, width: visible, height: height), destination: screen)
            }
            let visible = even(Double(height) * pictureAspect / screenAspect)
            return Placement(source: PixelRect(x: 0, y: offset(Double(height - visible) / 2), width: width, height: visible), destination: screen)
        }
    }

    /// A size: even, at least 2.
    private static func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
    /// An offset: even, and 0 when the picture fits exactly.
    private static func offset(_ value: Double) -> Int { max(0, Int((value / 2).rounded()) * 2) }
}
