/// How the picture fills the screen (AVLayerVideoGravity's names, as the
/// configuration's `gravity` and `marquee play --gravity` take them).
public enum VideoGravity: String, Sendable, Codable, CaseIterable {
    /// Whole picture visible, aspect kept, borders in the background colour.
    case resizeAspect
    /// Screen filled, aspect kept, the picture cropped.
    case resizeAspectFill
    /// Screen filled, picture stretched.
    case resize
}
