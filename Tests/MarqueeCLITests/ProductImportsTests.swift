import Foundation
import Testing

/// The shipped modules import FoundationEssentials, never Foundation (which
/// brings CoreFoundation and ICU's data into the static binary: see
/// docs/architecture.md, "Layers"). Tests and their support may use it.
@Suite struct ProductImportsTests {
    static let products = ["MarqueeCore", "MarqueeFFmpeg", "Marquee", "MarqueeKMS", "MarqueeALSA", "MarqueeConfig",
                           "MarqueeControl", "MarqueeHTTP", "marquee"]

    @Test func noShippedModuleImportsFoundation() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var offenders: [String] = []
        var scanned = 0
        for product in Self.products {
            let folder = sources.appendingPathComponent(product)
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            for file in files where file.hasSuffix(".swift") {
                scanned += 1
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where Self.importsFoundation(line) {
                    offenders.append("\(product)/\(file):\(number + 1): \(line)")
                }
            }
        }
        #expect(scanned > 200, "only \(scanned) source files found under \(sources.path)")
        #expect(offenders.isEmpty, "Foundation imported by shipped code:\n\(offenders.joined(separator: "\n"))")
    }

    /// `import Foundation`, `@_exported import Foundation`, `import struct Foundation.Thread`:
    /// anything that names the module Foundation itself (not FoundationEssentials).
    static func importsFoundation(_ line: Substring) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let at = words.firstIndex(of: "import") else { return false }
        return words[(at + 1)...].contains { $0 == "Foundation" || $0.hasPrefix("Foundation.") }
    }
}
