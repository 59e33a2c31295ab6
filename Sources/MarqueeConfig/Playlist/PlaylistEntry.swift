/// One `[playback] playlist` entry: a file, folder, glob or URL, written as
/// a string or as an inline table `{ path = "menu.jpg", duration = 20 }`
/// when the still pictures it names stay up for their own time.
public struct PlaylistEntry: Sendable, Equatable, ExpressibleByStringLiteral {
    public var path: String
    /// Seconds each still picture of the entry stays up (nil: `image_duration`).
    /// Video and sound play whole.
    public var duration: Double?
    /// A subtitle file shown over the entry (`captions`), where its name does not tie it to it.
    public var captions: String?

    public init(path: String, duration: Double? = nil, captions: String? = nil) {
        self.path = path
        self.duration = duration
        self.captions = captions
    }

    public init(stringLiteral path: String) {
        self.init(path: path)
    }

    /// The durations a picture may be given, as for `image_duration`.
    public static let durations: ClosedRange<Double> = 0.04...86_400
}
