import Marquee
import MarqueeConfig

/// `--transition` and `--transition-ms` over `[playback] transition` and
/// `transition_ms`: how one playlist item gives way to the next.
enum TransitionFlags {
    static let options = [
        OptionSpec("--transition", "cut|fade", default: "cut; [playback] transition", .input,
                   "between items: cut, or fade down to the background colour and up again"),
        OptionSpec("--transition-ms", "MS", default: "500; [playback] transition_ms", .input,
                   "how long a fade lasts, 0 to 10000 ms, within the items' own time"),
    ]

    /// - Parameter background: the colour faded through (0xRRGGBB), the display's borders'.
    /// - Throws: `UsageError` for a name or a duration out of range, or a fade of 0 ms.
    static func parse(_ parser: inout ArgumentParser, file: MarqueeConfiguration.Playback, background: UInt32) throws -> ItemTransition {
        let name = try parser.option("--transition") ?? file.transition.rawValue
        guard let kind = Transition(rawValue: name) else { throw UsageError("--transition must be cut or fade, not '\(name)'") }
        let milliseconds = try parser.option("--transition-ms", as: Int.self) ?? file.transitionMs
        guard (0...10_000).contains(milliseconds) else {
            throw UsageError("--transition-ms must be 0 to 10000, not \(milliseconds)")
        }
        switch kind {
        case .cut:
            return .cut
        case .fade:
            guard milliseconds > 0 else { throw UsageError("a fade needs --transition-ms above 0") }
            return .fade(seconds: Double(milliseconds) / 1000, rgb: background)
        }
    }
}
