import Foundation
import MarqueeConfig
import MarqueeTestSupport
import Testing

/// `marquee check-config`, the real executable.
@Suite struct CheckConfigCommandTests {
    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func marquee(_ arguments: [String]) async throws -> CommandResult {
        try await Blocking.run { try MarqueeExecutable.run(arguments) }
    }

    /// Must-show 4: a typo, a wrong type and an out-of-range value, all
    /// reported with line:column, and a non-zero exit.
    @Test func reportsATypoAWrongTypeAndARangeErrorAndFails() async throws {
        let path = try Self.write("""
            [display]
            rotaton = 90

            [audio]
            enabled = "yes"

            [playback]
            rate = 0
            """)
        let result = try await Self.marquee(["check-config", path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let headlines = result.stderr.split(separator: "\n").filter { $0.hasPrefix(path) }
        #expect(headlines == [
            "\(path):2:1: unknown key 'rotaton' in [display] (did you mean 'rotation'?)",
            "\(path):5:11: audio.enabled: expected true or false, found a string",
            "\(path):8:8: playback.rate: 0 is out of range 0.0625...16",
        ])
        #expect(result.stderr.contains("    5 | enabled = \"yes\"\n      |           ^"))
        #expect(result.stderr.hasSuffix("marquee: \(path): 3 problems\n"))
    }

    @Test func aSyntaxErrorIsOneProblemAtItsPlace() async throws {
        let path = try Self.write("[audio]\nvolume = = 1\n")
        let result = try await Self.marquee(["check-config", path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(path):2:10: expected a value, found '='"))
    }

    @Test func aGoodFilePrintsTheEffectiveConfiguration() async throws {
        let path = try Self.write("""
            [playback]
            loop = "playlist"
            [[controls.gpio]]
            chip = "gpiochip0"
            line = 5
            action = "seek -10"
            """)
        let result = try await Self.marquee(["check-config", path])
        #expect(result.status == 0, "\(result.stderr)")
        // The printed configuration is complete (defaults included) and reads back as the same thing.
        let printed = try MarqueeConfiguration.parse(result.stdout)
        #expect(printed == (try MarqueeConfiguration.load(path: path)))
        #expect(printed.playback.loop == .playlist)
        #expect(result.stdout.contains("latency_ms = 100"))
    }

    @Test func aButtonWithAnUnknownCommandIsRefused() async throws {
        let path = try Self.write("""
            [[controls.gpio]]
            chip = "gpiochip0"
            line = 5
            action = "paws"
            """)
        let result = try await Self.marquee(["check-config", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(path):4:10: controls.gpio[0].action: unknown command 'paws' (did you mean 'pause'?)"))
    }

    /// Issue 38, must-show 6: a bad `[[layer]]` is refused at FILE:LINE:COLUMN
    /// with the line quoted and a caret under the value, and a non-zero exit.
    @Test func aBadLayerIsRefusedAtItsPlace() async throws {
        let path = try Self.write("""
            [[layer]]
            name = "main"
            rect = [0, 0, 0, 100]
            items = ["a.mp4"]

            [[layer]]
            name = "side"
            playlist = "ticker"
            """)
        let result = try await Self.marquee(["check-config", path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let headlines = result.stderr.split(separator: "\n").filter { $0.hasPrefix(path) }
        #expect(headlines == [
            "\(path):3:15: layer[0].rect: width is 0: a layer must have a size",
            "\(path):8:12: layer[1].playlist: no [playlists.ticker] in the file",
        ], "\(result.stderr)")
        #expect(result.stderr.contains("    3 | rect = [0, 0, 0, 100]\n      |               ^"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("marquee: \(path): 2 problems\n"), "\(result.stderr)")
    }

    @Test func theShippedDefaultChecksClean() async throws {
        let result = try await Self.marquee(["check-config", ConfigurationTests.defaultFile])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try MarqueeConfiguration.parse(result.stdout) == MarqueeConfiguration())
    }

    @Test func aMissingFileIsOneLine() async throws {
        let result = try await Self.marquee(["check-config", "/nonexistent.toml"])
        #expect(result.status == 1)
        #expect(result.stderr == "marquee: /nonexistent.toml: No such file or directory\n")
    }
}
