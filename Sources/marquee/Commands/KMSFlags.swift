import FoundationEssentials
import MarqueeCore
import MarqueeKMS

/// The display flags of `marquee play`: --card, --connector, --mode,
/// --plane, --gravity, --rotation, --background, --legacy-kms (and --splash, read by `PlaySettings`).
enum KMSFlags {
    static let options = [
        OptionSpec("--card", "PATH", default: "the first card with a connected display", .display, "the DRM card ([display] card)"),
        OptionSpec("--connector", "NAME", default: "the first connected", .display, "the connector, e.g. HDMI-A-1 ([display] connector)"),
        OptionSpec("--mode", "preferred|highest|match-frame-rate|WxH[@HZ]", default: "preferred", .display,
                   "the display mode to set ([display] mode)"),
        OptionSpec("--plane", "auto|primary|overlay|ID", default: "auto", .display,
                   "the plane video goes on; auto picks by TEST_ONLY probing ([display] plane)"),
        OptionSpec("--gravity", "resizeAspect|resizeAspectFill|resize", default: "resizeAspect", .display,
                   "fit with borders, fill and crop, or stretch ([display] gravity)"),
        OptionSpec("--rotation", "0|90|180|270", default: "the file's", .display, "turn the picture clockwise ([display] rotation)"),
        OptionSpec("--background", "RRGGBB", default: "000000", .display, "colour of the borders ([display] background)"),
        OptionSpec("--splash", "PATH", default: "none: the background colour", .display,
                   "a picture shown before the first item and while nothing can play ([display] splash)"),
        OptionSpec("--legacy-kms", .display, "use the legacy (non-atomic) KMS calls"),
        OptionSpec("--kms-prime", .diagnostics, "scan every buffer out through a dmabuf export and import (tests PRIME)"),
    ]

    static func parse(_ parser: inout ArgumentParser) throws -> KMSOptions {
        var options = KMSOptions()
        options.card = try parser.option("--card")
        options.connector = try parser.option("--connector")
        if let text = try parser.option("--mode") {
            guard let mode = ModeRequest(text) else { throw UsageError("--mode: '\(text)' is not preferred, highest, match-frame-rate or WxH[@HZ]") }
            options.mode = mode
        }
        if let text = try parser.option("--plane") {
            guard let plane = PlaneRequest(text) else { throw UsageError("--plane: '\(text)' is not auto, primary, overlay or a plane id") }
            options.plane = plane
        }
        if let text = try parser.option("--gravity") {
            guard let gravity = VideoGravity(rawValue: text) else {
                throw UsageError("--gravity must be one of \(VideoGravity.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            options.gravity = gravity
        }
        if let rotation = try parser.option("--rotation", as: Int.self) {
            guard [0, 90, 180, 270].contains(rotation) else { throw UsageError("--rotation must be 0, 90, 180 or 270") }
            options.rotation = rotation
        }
        if let text = try parser.option("--background") {
            guard text.count == 6, let colour = UInt32(text, radix: 16) else { throw UsageError("--background must be RRGGBB hex, not '\(text)'") }
            options.background = colour
        }
        options.forceLegacy = parser.flag("--legacy-kms")
        options.primeImport = parser.flag("--kms-prime")
        return options
    }

    /// KMS is the default video output when the machine has a DRM card.
    static var hasCard: Bool { !DRMDevice.cards().isEmpty }
}
