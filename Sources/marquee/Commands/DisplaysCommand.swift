import FoundationEssentials
import Marquee
import MarqueeApp
import MarqueeKMS

/// `marquee displays`: every DRM card's connectors, modes, CRTCs and planes.
struct DisplaysCommand: Subcommand {
    static let name = "displays"
    static let operands = ""
    static let options = [OptionSpec("--json", .diagnostics, "JSON instead of text")]
    static let summary = "List connectors (status, modes), CRTCs and planes (formats, modifiers, zpos, rotation) of each card,\n"
        + "and what each plane can do for video (position, scale), probed by TEST_ONLY commits."

    let json: Bool

    init(parsing parser: inout ArgumentParser) throws {
        json = parser.flag("--json")
        let extra = try parser.positional()
        if !extra.isEmpty { throw UsageError("displays takes no arguments") }
    }

    func run() async -> Int32 {
        let cards = DRMDevice.cards()
        guard !cards.isEmpty else {
            Diagnostics.error("/dev/dri: no DRM card")
            if json { print("[]") }
            return 1
        }
        var inventories: [DisplayInventory] = []
        var failed = false
        for card in cards {
            do {
                let device = try DRMDevice(path: card)
                var inventory = try DisplayInventory(device: device)
                do {
                    inventory.probe = try PlaneProbeReport(device: device, inventory: inventory)
                } catch {
                    // The listing stands without it (another program may be the DRM master).
                    Diagnostics.error("\(card): planes not probed: \(error)")
                }
                inventories.append(inventory)
            } catch {
                Diagnostics.error("\(error)")
                failed = true
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: (try? encoder.encode(inventories)) ?? Data("[]".utf8), as: UTF8.self))
        } else {
            inventories.forEach { print(Self.table($0)) }
        }
        return failed ? 1 : 0
    }

    static func table(_ inventory: DisplayInventory) -> String {
        var lines = ["\(inventory.device) (\(inventory.driver), \(inventory.supportsAtomic ? "atomic" : "legacy"))"]
        for connector in inventory.connectors {
            lines.append("  connector \(connector.id) \(connector.name) \(connector.isConnected ? "connected" : "disconnected")")
            for mode in connector.modes { lines.append("    mode \(mode)\(mode.isPreferred ? " preferred" : "")") }
        }
        for crtc in inventory.crtcs {
            lines.append("  crtc \(crtc.id) \(crtc.mode.map(\.description) ?? "off") fb \(crtc.framebuffer)")
        }
        for plane in inventory.planes {
            var line = "  plane \(plane.id) \(plane.kind.rawValue) formats \(plane.formats.joined(separator: " "))"
            if let zpos = plane.zpos { line += " zpos \(zpos)" }
            if !plane.rotations.isEmpty { line += " rotation \(plane.rotations.joined(separator: ","))" }
            if !plane.modifiers.isEmpty { line += " modifiers \(Set(plane.modifiers.values.flatMap { $0 }).count)" }
            lines.append(line)
        }
        if let probe = inventory.probe {
            lines.append("  probed on \(probe.connector) \(probe.mode), CRTC \(probe.crtc):")
            for plane in probe.planes {
                let video = plane.plane == probe.videoPlane ? ", video goes here" : ""
                lines.append("    plane \(plane.plane) \(plane.format) \(plane.canScale ? "scales" : "does not scale"), "
                             + "\(plane.canPosition ? "positions" : "full screen only"): \(plane.strategy.rawValue)\(video)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
