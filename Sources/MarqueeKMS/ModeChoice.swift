/// Which display mode to set.
public enum ModeRequest: Sendable, Equatable, CustomStringConvertible {
    /// The connector's preferred mode (its native resolution).
    case preferred
    /// The largest mode, highest refresh among equals.
    case highest
    /// `WxH@Hz`; Hz optional.
    case exact(width: Int, height: Int, refreshRate: Double?)
    /// The preferred resolution at the refresh rate that is a multiple of the
    /// video's frame rate, where the connector offers one (24p on a 24/48 Hz mode).
    case matchFrameRate

    /// Parses "preferred", "highest", "match-frame-rate" or "1920x1080@60".
    public init?(_ text: String) {
        switch text {
        case "preferred": self = .preferred
        case "highest": self = .highest
        case "match-frame-rate": self = .matchFrameRate
        default:
            let parts = text.split(separator: "@", maxSplits: 1)
            let size = parts[0].split(separator: "x")
            guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]) else { return nil }
            let rate = parts.count == 2 ? Double(parts[1]) : nil
            if parts.count == 2, rate == nil { return nil }
            self = .exact(width: width, height: height, refreshRate: rate)
        }
    }

    public var description: String {
        switch self {
        case .preferred: "preferred"
        case .highest: "highest"
        case .matchFrameRate: "match-frame-rate"
        case .exact(let width, let height, let rate): "\(width)x\(height)" + (rate.map { "@\($0)" } ?? "")
        }
    }

    /// The mode to use from `modes`, or nil when none matches an exact request.
    public func choose(from modes: [DisplayMode], frameRate: Double? = nil) -> DisplayMode? {
        guard !modes.isEmpty else { return nil }
        let preferred = modes.first(where: \.isPreferred) ?? modes[0]
        switch self {
        case .preferred:
            return preferred
        case .highest:
            return modes.max { ($0.width * $0.height, $0.refreshRate) < ($1.width * $1.height, $1.refreshRate) }
        case .exact(let width, let height, let rate):
            let sized = modes.filter { $0.width == width && $0.height == height }
            guard let rate else { return sized.first(where: \.isPreferred) ?? sized.max { $0.refreshRate < $1.refreshRate } }
            return sized.min { abs($0.refreshRate - rate) < abs($1.refreshRate - rate) }.flatMap { abs($0.refreshRate - rate) < 0.5 ? $0 : nil }
        case .matchFrameRate:
            guard let frameRate, frameRate > 0 else { return preferred }
            let sameSize = modes.filter { $0.width == preferred.width && $0.height == preferred.height }
            let matching = sameSize.filter { mode in
                let ratio = mode.refreshRate / frameRate
                // 24 Hz for 23.976 fps would repeat a frame every 42 s: only near-exact multiples count.
                return ratio >= 0.9995 && abs(ratio - ratio.rounded()) < 0.0005
            }
            return matching.min { $0.refreshRate < $1.refreshRate } ?? preferred
        }
    }
}
