import Foundation
import MarqueeTestSupport
import Testing

/// Issue 18: a command line that teaches itself.
@Suite struct HelpTests {
    static let commands = ["info", "play", "displays", "check-config", "schedule", "hwdec", "fleet", "completion"]

    /// The options a help text lists, with the line that describes each.
    static func options(inHelp help: String) -> [(name: String, description: String)] {
        let lines = help.components(separatedBy: "\n")
        return lines.indices.compactMap { index in
            let line = lines[index]
            guard line.hasPrefix("  --"), index + 1 < lines.count else { return nil }
            let name = String(line.dropFirst(2).prefix { $0 != " " })
            return (name, lines[index + 1].trimmingCharacters(in: .whitespaces))
        }
    }

    /// Must-show 1: every option in a command's help has a description and
    /// is accepted by the command (given a bad value or none, the complaint
    /// is never that it is unknown); an option that is not in the help is.
    /// The parser itself refuses to read an option its help does not declare.
    @Test(arguments: commands)
    func everyOptionInTheHelpIsDescribedAndAccepted(command: String) throws {
        let help = try MarqueeExecutable.run([command, "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: marquee \(command)"))
        #expect(try MarqueeExecutable.run(["help", command]).stdout == help.stdout)
        #expect(try MarqueeExecutable.run([command, "-h"]).stdout == help.stdout)
        for (name, description) in Self.options(inHelp: help.stdout) where name != "--help" {
            #expect(description.count > 10, "\(command) \(name) has no description")
            let result = try MarqueeExecutable.run([command, name, "/nonexistent/x", "/nonexistent/y.mp4"], timeout: 20)
            #expect(!result.stderr.contains("unknown option '\(name)'"), "\(command) does not accept \(name): \(result.stderr)")
        }
        let unknown = try MarqueeExecutable.run([command, "--no-such-option", "x"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown option '--no-such-option'") || unknown.stderr.contains("takes"), "\(unknown.stderr)")
    }

    /// Options are grouped, and each that takes a value says its default.
    @Test func playsHelpGroupsItsOptionsAndGivesDefaults() throws {
        let help = try MarqueeExecutable.run(["play", "--help"]).stdout
        for group in ["input:", "display:", "audio:", "decoding:", "control:", "diagnostics:"] {
            #expect(help.contains("\n\(group)\n"), "no \(group) group")
        }
        #expect(help.contains("  --loops N\n      passes to play in all with --loop; alone it loops the item N times (default: forever)"))
        #expect(help.contains("  --hwdec auto|vaapi|software\n"))
        #expect(Self.options(inHelp: help).count >= 28)
    }

    /// Must-show 2: the version names this build's commit and the libraries
    /// it runs against, as pkg-config describes the ones installed.
    @Test func theVersionNamesTheCommitAndTheLibraries() throws {
        let result = try MarqueeExecutable.run(["--version"])
        #expect(result.status == 0)
        let lines = result.stdout.components(separatedBy: "\n")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let commit = try Command.run("/usr/bin/git", ["-C", root, "rev-parse", "--short=12", "HEAD"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(lines.first?.hasPrefix("marquee ") == true)
        #expect(lines.first?.contains("(commit \(commit)") == true, "\(lines.first ?? "") vs HEAD \(commit)")
        for (library, package, label) in [("libavformat", "libavformat", ""), ("libavcodec", "libavcodec", ""),
                                          ("libavutil", "libavutil", ""), ("libavfilter", "libavfilter", ""), ("libswscale", "libswscale", ""),
                                          ("libswresample", "libswresample", ""), ("libasound", "alsa", ""),
                                          ("libdrm", "libdrm", " (build-time)"), ("libva", "libva", " (build-time)")] {
            let version = try Command.run("/usr/bin/pkg-config", ["--modversion", package]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(lines.contains("\(library) \(version)\(label)"), "no '\(library) \(version)\(label)' in:\n\(result.stdout)")
        }
    }

    /// Must-show 3: `--loops N` alone loops the item N times (as mpv's
    /// --loop-file=N); with `--loop none` it is a usage error.
    @Test func loopsAloneLoopsTheItem() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let statsPath = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).json").path
        let result = try MarqueeExecutable.run(["play", clip, "--untimed", "--loops", "3", "--video-out", "null",
                                                "--audio-out", "null", "--stats", statsPath])
        #expect(result.status == 0, "\(result.stderr)")
        let stats = try PlayTests.stats(statsPath)
        #expect(stats.endNotifications == 3)
        #expect(stats.framesPresented == 30)
        let none = try MarqueeExecutable.run(["play", clip, "--loop", "none", "--loops", "3"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("--loops needs --loop item or playlist"))
    }

    /// Options that only one kind of output reads are errors with any other,
    /// instead of being ignored.
    @Test func optionsForAnotherOutputAreErrors() throws {
        for (arguments, message) in [(["--video-out", "null", "--mode", "highest"], "--mode applies to --video-out kms only"),
                                     (["--video-out", "null", "--legacy-kms"], "--legacy-kms applies to --video-out kms only"),
                                     (["--audio-out", "null", "--audio-buffer-ms", "200"], "--audio-buffer-ms applies to --audio-out alsa only"),
                                     (["--no-audio", "--audio-out", "null"], "--no-audio and --audio-out contradict")] {
            let result = try MarqueeExecutable.run(["play", "x.mp4"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    /// Must-show 4: with the default --hwdec auto, software decoding on a
    /// machine without a render node is expected and says nothing; asked for
    /// (--log-level debug) it is one line.
    @Test func theDefaultHwdecSaysNothingWithoutARenderNode() throws {
        guard !FileManager.default.fileExists(atPath: "/dev/dri") else { return }
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let quiet = try MarqueeExecutable.run(["play", clip, "--video-out", "null", "--audio-out", "null", "--untimed"])
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "stderr: \(quiet.stderr)")
        let debug = try MarqueeExecutable.run(["play", clip, "--video-out", "null", "--audio-out", "null", "--untimed",
                                               "--log-level", "debug"])
        #expect(debug.stderr.contains("decoding video in software"), "stderr: \(debug.stderr)")
    }

    /// The completion script is valid bash and completes commands, options
    /// and the values of enumerated options.
    @Test func bashCompletesCommandsOptionsAndValues() throws {
        let script = try MarqueeExecutable.run(["completion", "bash"])
        #expect(script.status == 0)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-completion-\(UUID().uuidString)").path
        try script.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let shell = ". '\(path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _marquee; printf '%s\\n' \"${COMPREPLY[@]}\""
            return try Command.run("/bin/bash", ["-c", shell]).stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["marquee", "pl"]) == ["play"])
        #expect(try complete(["marquee", "play", "--hwdec"]).sorted() == ["--hwdec", "--hwdec-device"])
        #expect(try complete(["marquee", "play", "--hwdec", ""]).sorted() == ["auto", "software", "vaapi"])
        #expect(try complete(["marquee", "play", "--loop", "pl"]) == ["playlist"])
        #expect(try complete(["marquee", "play", "--transition", ""]).sorted() == ["cut", "fade"])
        #expect(try complete(["marquee", "help", "che"]) == ["check-config"])
    }
}
