import MarqueeCore

/// What the user chose for the display ([display] in the config, or flags).
public struct KMSOptions: Sendable {
    /// "/dev/dri/card0"; nil picks the first card with a connected connector.
    public var card: String?
    /// "HDMI-A-1"; nil picks the first connected one.
    public var connector: String?
    public var mode: ModeRequest = .preferred
    public var plane: PlaneRequest = .auto
    public var gravity: VideoGravity = .resizeAspect
    /// Clockwise degrees (0, 90, 180, 270) that override the track's own rotation.
    public var rotation: Int?
    /// Border colour, 0xRRGGBB.
    public var background: UInt32 = 0x000000
    /// Use SetCrtc + PageFlip even where the driver has atomic modesetting.
    public var forceLegacy = false
    /// Scan out each buffer through a dmabuf export and PRIME import, the
    /// path hardware-decoded surfaces take (a check of that path on any card with PRIME).
    public var primeImport = false
    /// The video's frame rate, for `ModeRequest.matchFrameRate`.
    public var frameRate: Double?
    /// Told, in one line, when the display goes away or comes back.
    public var onDisplayEvent: (@Sendable (String) -> Void)?

    public init() {}
}
