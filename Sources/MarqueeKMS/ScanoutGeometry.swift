import MarqueeCore
/// What a plane can do with a buffer, as TEST_ONLY commits found it.
public enum ScanoutStrategy: String, Sendable, Encodable {
    /// The plane covers the whole screen: gravity and borders are drawn into
    /// a screen-sized buffer (primary planes that cannot be positioned).
    case fullScreen
    /// The plane shows a buffer the size of the picture's place on screen;
    /// the picture is scaled in software, the borders are another plane's.
    case positioned
    /// The plane scales: the buffer holds the picture at its own size and the
    /// display hardware crops and scales it.
    case scaled
}

/// Where one picture goes: the buffer it is drawn into and the plane's
/// source and destination rectangles for it.
public struct ScanoutGeometry: Sendable, Equatable {
    public let bufferWidth: Int
    public let bufferHeight: Int
    /// Where the converter draws in the buffer.
    public let drawRect: PixelRect
    /// The part of the (rotated) picture the converter draws; nil for all of it.
    public let pictureCrop: PixelRect?
    /// The plane's SRC rectangle, in buffer pixels.
    public let source: PixelRect
    /// The plane's CRTC rectangle, in screen pixels.
    public let destination: PixelRect

    /// - Parameters:
    ///   - width, height: the picture as shown, already rotated.
    ///   - placement: where `Placement.fit` put it on the screen.
    public init(strategy: ScanoutStrategy, width: Int, height: Int, placement: Placement, screenWidth: Int, screenHeight: Int) {
        let screen = PixelRect(x: 0, y: 0, width: screenWidth, height: screenHeight)
        let cropped = placement.source.width == width && placement.source.height == height ? nil : placement.source
        switch strategy {
        case .fullScreen:
            (bufferWidth, bufferHeight) = (screenWidth, screenHeight)
            (drawRect, pictureCrop, source, destination) = (placement.destination, cropped, screen, screen)
        case .positioned:
            let whole = PixelRect(x: 0, y: 0, width: placement.destination.width, height: placement.destination.height)
            (bufferWidth, bufferHeight) = (whole.width, whole.height)
            (drawRect, pictureCrop, source, destination) = (whole, cropped, whole, placement.destination)
        case .scaled:
            (bufferWidth, bufferHeight) = (width, height)
            (drawRect, pictureCrop, source, destination) =
                (PixelRect(x: 0, y: 0, width: width, height: height), nil, placement.source, placement.destination)
        }
    }
}
