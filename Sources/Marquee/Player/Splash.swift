/// What the display shows first when the player first plays, before any
/// item's frame, and keeps showing while nothing can play
/// (`PlayerConfiguration.splash`).
public struct Splash: Sendable, Equatable {
    /// A still picture (PNG, JPEG, WebP...), decoded as a picture item is
    /// and placed by the output as any frame; nil for the colour alone. One
    /// that cannot be read is posted as `PlayerEvent.splashUnavailable`, and
    /// the colour is shown instead.
    public var path: String?
    /// 0xRRGGBB: the whole screen where there is no picture.
    public var background: UInt32

    public init(path: String?, background: UInt32 = 0x000000) {
        self.path = path
        self.background = background
    }
}
