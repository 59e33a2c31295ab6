/// Which plane carries the video (`[display] plane`, `--plane`).
public enum PlaneRequest: Sendable, Equatable, CustomStringConvertible {
    /// The best plane by probing: one that scales, then one that can be
    /// positioned, overlays before the primary.
    case auto
    case primary
    /// The best overlay plane by probing.
    case overlay
    case id(UInt32)

    public init?(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "primary": self = .primary
        case "overlay": self = .overlay
        default:
            guard let id = UInt32(text) else { return nil }
            self = .id(id)
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .primary: "primary"
        case .overlay: "overlay"
        case .id(let id): String(id)
        }
    }
}
