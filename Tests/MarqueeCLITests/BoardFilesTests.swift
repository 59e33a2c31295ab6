import Foundation
import MarqueeTestSupport
import Testing

/// What a board ships besides the binary: its configuration passes
/// `marquee check-config`, and its systemd unit passes `systemd-analyze verify`.
@Suite struct BoardFilesTests {
    static let boards = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("board")

    static func files(named suffix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: boards, includingPropertiesForKeys: nil).flatMap { board in
            ((try? FileManager.default.contentsOfDirectory(at: board, includingPropertiesForKeys: nil)) ?? [])
                .filter { $0.lastPathComponent.hasSuffix(suffix) }
        }
    }

    @Test func everyBoardConfigurationChecksClean() throws {
        let configurations = try Self.files(named: "config.toml")
        #expect(!configurations.isEmpty, "no board ships a config.toml")
        for file in configurations {
            let result = try MarqueeExecutable.run(["check-config", file.path])
            #expect(result.status == 0, "\(file.path): \(result.stderr)")
            // Only a playlist folder that exists on the device, not here, may be mentioned.
            let unexpected = result.stderr.split(separator: "\n").filter { !$0.contains("playlist:") }
            #expect(unexpected.isEmpty, "\(file.path): \(unexpected)")
            #expect(result.stdout.contains("loop = \"playlist\""), "\(file.path) does not loop its playlist")
        }
    }

    /// `systemd-analyze verify` checks the directives and that ExecStart's
    /// binary exists, so it is pointed at the one just built.
    @Test func everySystemdUnitVerifies() throws {
        let units = try Self.files(named: ".service")
        #expect(!units.isEmpty, "no board ships a systemd unit")
        let analyze = try Command.which("systemd-analyze")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for unit in units {
            let text = try String(contentsOf: unit, encoding: .utf8)
            #expect(text.contains("ExecStart=/usr/local/bin/marquee play"), "\(unit.path) does not start `marquee play`")
            let copy = folder.appendingPathComponent(unit.lastPathComponent)
            try text.replacingOccurrences(of: "/usr/local/bin/marquee", with: MarqueeExecutable.path)
                .write(to: copy, atomically: true, encoding: .utf8)
            let result = try Command.run(analyze, ["verify", copy.path])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(unit.path): \(result.stderr)")
        }
    }
}
