import FoundationEssentials
import Marquee
import MarqueeApp

/// `marquee hwdec`: what the VA-API driver of the render node decodes
/// (profiles and entry points), and for each input given, whether its video
/// would be decoded on it or in software and why. Exit 1 when there is no
/// usable device.
struct HwdecCommand: Subcommand {
    static let name = "hwdec"
    static let operands = "[FILE_OR_URL...]"
    static let options = [OptionSpec("--hwdec-device", "PATH", default: "the first /dev/dri/renderD*", .decoding, "the render node to ask")]
    static let summary = "List the VA-API profiles of the render node, and which decoder each input's video would use."

    let device: String?
    let inputs: [String]

    init(parsing parser: inout ArgumentParser) throws {
        device = try parser.option("--hwdec-device")
        inputs = try parser.positional()
    }

    func run() async -> Int32 {
        let va: VADevice
        do {
            va = try VADevice(path: try RenderNode.resolve(device))
        } catch {
            print("no VA-API device: \(error)")
            for input in inputs { print("\(input): software") }
            return 1
        }
        print("\(va.path): VA-API \(va.version.major).\(va.version.minor), \(va.vendor)")
        do {
            for profile in try va.profiles() {
                print("  \(profile.name.padded(to: 34)) \(profile.entrypointNames.joined(separator: ", "))")
            }
        } catch {
            Diagnostics.error("\(error)")
            return 1
        }
        for input in inputs { print("\(input): \(decoder(for: input, device: va.path))") }
        return 0
    }

    /// "vaapi", or "software: REASON".
    private func decoder(for input: String, device: String) -> String {
        do {
            let demuxer = try Demuxer(source: input)
            guard let track = demuxer.media.preferredTrack(.video) else { return "no video track" }
            try VAAPIVideoDecoder.checkDecodes(demuxer: demuxer, stream: track.id, device: device)
            return "vaapi"
        } catch {
            return "software: \(error)"
        }
    }
}
