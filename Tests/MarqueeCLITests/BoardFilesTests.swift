import Foundation
import MarqueeTestSupport
import Testing

/// What a board ships besides the binary: its configuration passes
/// `marquee check-config`, its systemd unit passes `systemd-analyze verify`,
/// and the Debian package's man page documents every option of every command.
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

    /// `systemd-analyze verify` checks the directives, that ExecStart's
    /// binary exists and that `man` finds the man: pages the unit names, so
    /// it is pointed at the binary just built and the package's man page.
    @Test func everySystemdUnitVerifies() throws {
        let units = try Self.files(named: ".service")
        #expect(!units.isEmpty, "no board ships a systemd unit")
        let analyze = try Command.which("systemd-analyze")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-units-\(UUID().uuidString)")
        let manuals = folder.appendingPathComponent("man/man1")
        try FileManager.default.createDirectory(at: manuals, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try Command.run(Self.boards.appendingPathComponent("debian-kiosk/manpage").path, [MarqueeExecutable.path])
        try page.stdout.write(to: manuals.appendingPathComponent("marquee.1"), atomically: true, encoding: .utf8)
        for unit in units {
            let text = try String(contentsOf: unit, encoding: .utf8)
            #expect(text.contains("ExecStart=/usr/bin/marquee play"), "\(unit.path) does not start `marquee play`")
            let copy = folder.appendingPathComponent(unit.lastPathComponent)
            try text.replacingOccurrences(of: "/usr/bin/marquee", with: MarqueeExecutable.path)
                .write(to: copy, atomically: true, encoding: .utf8)
            let result = try Command.run("/usr/bin/env", ["MANPATH=\(folder.path)/man", analyze, "verify", copy.path])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(unit.path): \(result.stderr)")
        }
    }

    /// board/debian-kiosk/manpage writes marquee(1) from the binary's help:
    /// every command has its section, and each option its help lists is in
    /// it (as roff writes it: hyphens as minus signs) with its description.
    @Test func theManPageListsEveryOptionOfEveryCommand() throws {
        let script = Self.boards.appendingPathComponent("debian-kiosk/manpage").path
        let page = try Command.run(script, [MarqueeExecutable.path, "1.2.3"])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.hasPrefix(".TH MARQUEE 1 \"\" \"marquee 1.2.3\""))
        for command in HelpTests.commands {
            let roff = { (text: String) in text.replacingOccurrences(of: "-", with: "\\-") }
            #expect(page.stdout.contains(".SS \"\(roff(command))"), "no section for \(command)")
            let help = try MarqueeExecutable.run(["help", command]).stdout
            let options = HelpTests.options(inHelp: help).filter { $0.name != "--help" }
            for (name, description) in options {
                #expect(page.stdout.contains(".B \(roff(name))"), "marquee(1) lacks \(command) \(name)")
                #expect(page.stdout.contains(description), "marquee(1) lacks the description of \(command) \(name)")
            }
        }
    }
}
