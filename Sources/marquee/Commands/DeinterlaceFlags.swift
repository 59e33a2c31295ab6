import MarqueeConfig
import MarqueeCore

/// `--deinterlace` and `--deinterlace-rate`: `play` deinterlaces by them
/// (over `[decode] deinterlace` and `deinterlace_rate`), `info` says what
/// they would do to each input.
enum DeinterlaceFlags {
    static let options = [
        OptionSpec("--deinterlace", "auto|on|off", default: "auto; [decode] deinterlace", .decoding,
                   "bwdif on the pictures flagged interlaced, on every picture, or on none"),
        OptionSpec("--deinterlace-rate", "frame|field", default: "frame; [decode] deinterlace_rate", .decoding,
                   "one picture per frame, or one per field at twice the frame rate"),
    ]

    static func parse(_ parser: inout ArgumentParser, file: MarqueeConfiguration.Decode = MarqueeConfiguration().decode) throws -> Deinterlacing {
        let modeName = try parser.option("--deinterlace") ?? file.deinterlace.rawValue
        guard let mode = Deinterlacing.Mode(rawValue: modeName) else {
            throw UsageError("--deinterlace must be auto, on or off, not '\(modeName)'")
        }
        let rateName = try parser.option("--deinterlace-rate") ?? file.deinterlaceRate.rawValue
        guard let rate = Deinterlacing.Rate(rawValue: rateName) else {
            throw UsageError("--deinterlace-rate must be frame or field, not '\(rateName)'")
        }
        return Deinterlacing(mode: mode, rate: rate)
    }
}
