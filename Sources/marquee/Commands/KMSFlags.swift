import Foundation
import MarqueeCore
import MarqueeKMS

/// The display flags of `marquee play`: --card, --connector, --mode,
/// --plane, --gravity, --rotation, --background, --legacy-kms.
enum KMSFlags {
    static let usage = "[--card PATH] [--connector NAME] [--mode preferred|highest|match-frame-rate|WxH[@HZ]] [--plane auto|primary|overlay|ID] "
        + "[--gravity resizeAspect|resizeAspectFill|resize] [--rotation 0|90|180|270] [--background RRGGBB] [--legacy-kms] [--kms-prime]"

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
