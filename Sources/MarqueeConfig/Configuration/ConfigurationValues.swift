/// The closed sets of names the configuration accepts. Each raw value is
/// exactly what is written in the file.

public enum HardwareAcceleration: String, Sendable, CaseIterable {
    /// VA-API when the device decodes the codec, software otherwise.
    case auto, vaapi, software
}

/// What the screen shows between two playlist items.
public enum BetweenItems: String, Sendable, CaseIterable {
    case holdLastFrame = "hold-last-frame"
    case black
}

/// How the picture goes from one playlist item to the next.
public enum Transition: String, Sendable, CaseIterable {
    /// The next item's first frame follows the last one's.
    case cut
    /// Down to the background colour and up again, over `transition_ms`.
    case fade
}

/// What happens when an item cannot be played.
public enum OnError: String, Sendable, CaseIterable {
    /// One error line, then the next item.
    case skip
    /// One error line, then the player exits with status 1.
    case stop
}

public enum ControlFormat: String, Sendable, CaseIterable {
    /// `seek +5` in, `ok` / `error: ...` out.
    case text
    /// `{"command": "seek", "args": ["+5"], "id": 7}` in, `{"id": 7, "result": ...}` out.
    case json
}

/// The logical edge of a button (after active-low inversion) that acts.
public enum ButtonEdge: String, Sendable, CaseIterable {
    /// When the button is pressed.
    case rising
    /// When the button is released.
    case falling
    /// Both (a latching switch).
    case both
}

public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case error, warning, info, debug

    public static func < (a: LogLevel, b: LogLevel) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Which display mode to set, as `marquee play --mode` takes it.
public enum DisplayModeRequest: Sendable, Equatable, CustomStringConvertible {
    /// The connector's preferred mode (its native resolution).
    case preferred
    /// The largest mode, highest refresh among equals.
    case highest
    /// The preferred resolution at a refresh rate that is a multiple of the video's frame rate.
    case matchFrameRate
    /// `WIDTHxHEIGHT` or `WIDTHxHEIGHT@HZ`.
    case size(width: Int, height: Int, refreshHz: Double?)

    public init?(_ text: String) {
        switch text {
        case "preferred": self = .preferred; return
        case "highest": self = .highest; return
        case "match-frame-rate": self = .matchFrameRate; return
        default: break
        }
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]),
              (1...16384).contains(width), (1...16384).contains(height) else { return nil }
        var refresh: Double?
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz > 0, hz <= 1000 else { return nil }
            refresh = hz
        }
        self = .size(width: width, height: height, refreshHz: refresh)
    }

    public var description: String {
        switch self {
        case .preferred: "preferred"
        case .highest: "highest"
        case .matchFrameRate: "match-frame-rate"
        case .size(let width, let height, nil): "\(width)x\(height)"
        case .size(let width, let height, let hz?):
            "\(width)x\(height)@\(hz == hz.rounded() ? String(Int(hz)) : String(hz))"
        }
    }
}

/// An sRGB colour written `"#RRGGBB"` (or `"RRGGBB"`, as `--background` takes it).
public struct RGBColor: Sendable, Equatable, CustomStringConvertible {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public init?(_ text: String) {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// 0xRRGGBB.
    public var rgb: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    public var description: String {
        "#" + [red, green, blue].map { pad(Int($0), 2, radix: 16) }.joined()
    }
}

private func pad(_ value: Int, _ width: Int, radix: Int) -> String {
    let digits = String(value, radix: radix, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// `[playback] max_resolution`: "WIDTHxHEIGHT", or "" for no limit.
public struct MaximumResolution: Sendable, Equatable, CustomStringConvertible {
    public var width: Int?
    public var height: Int?

    public init() {}

    public init?(_ text: String) {
        guard !text.isEmpty else { return }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        (self.width, self.height) = (width, height)
    }

    public var description: String {
        guard let width, let height else { return "" }
        return "\(width)x\(height)"
    }
}
