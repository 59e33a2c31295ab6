import Marquee
import MarqueeKMS
import Synchronization

/// How the display composes a picture (gravity, rotation and background),
/// for a screenshot that shows what the display shows.
final class ScreenLayout: Sendable {
    let gravity: VideoGravity
    /// Clockwise degrees; nil follows the picture's own orientation.
    let rotation: Int?
    let background: UInt32
    /// The show's `[[layer]]` layout, whose display composes screenshots itself.
    let layout: ShowLayout?

    /// One screenshot at a time: each composes a full screen in memory.
    private let capturing = Mutex(())

    init(gravity: VideoGravity, rotation: Int?, background: UInt32, layout: ShowLayout? = nil) {
        self.layout = layout
        self.gravity = gravity
        self.rotation = rotation
        self.background = background
    }

    /// `picture` composed on a screen like the display's (of its size; a
    /// picture drawn without one, on its own size), as PNG bytes,
    /// `scaledWidth` pixels across when given.
    /// - Throws: the conversion's or the encoder's error.
    func png(of picture: PictureOnScreen, scaledWidth: Int?) throws -> [UInt8] {
        try capturing.withLock { _ in
            let screen = picture.screenSize ?? PixelSize(width: picture.frame.width, height: picture.frame.height)
            let clock = MonotonicClock()
            let display = MemoryDisplay(width: screen.width, height: screen.height, clock: clock, refreshRate: 1000,
                                        gravity: gravity, rotation: rotation, background: background)
            let capture = try ScreenCapture()
            try capture.draw(picture.frame, on: display, at: clock.now())
            return try capture.png(rgb: display.screen(), width: display.width, height: display.height, scaledWidth: scaledWidth)
        }
    }
}
