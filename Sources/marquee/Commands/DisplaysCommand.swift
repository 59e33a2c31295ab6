import Foundation
import Marquee
import MarqueeKMS

/// `marquee displays`: every DRM card's connectors, modes, CRTCs and planes.
struct DisplaysCommand: Subcommand {
    static let name = "displays"
    static let usage = "displays [--json]"
    static let summary = "List connectors (status, modes), CRTCs and planes (formats, modifiers, zpos, rotation) of each card."

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
                inventories.append(try DisplayInventory(device: try DRMDevice(path: card)))
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
        return lines.joined(separator: "\n")
    }
}
