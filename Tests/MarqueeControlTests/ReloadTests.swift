import Foundation
import MarqueeTestSupport
import Testing

/// `marquee play --config FILE`: the file's settings, flags over them, and
/// reloading it while playing (SIGHUP or `reload`).
@Suite(.serialized) struct ReloadTests {
    /// A folder with a config file and three differently named 2 s clips.
    struct Setup: Sendable {
        let folder: String
        var config: String { "\(folder)/marquee.toml" }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let clip = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 10, size: "160x120"))
            for name in ["a", "b", "c"] { try FileManager.default.copyItem(atPath: clip, toPath: "\(folder)/\(name).mp4") }
        }

        func write(_ text: String) throws {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
        }
    }

    static func marquee(_ arguments: [String], timeout: Double = 60) async throws -> CommandResult {
        try await Blocking.run { try MarqueeExecutable.run(arguments, timeout: timeout) }
    }

    @Test func theFileSetsThePlaylistAndFlagsWin() async throws {
        let setup = try await Blocking.run { try Setup() }
        try setup.write("""
            [playback]
            playlist = ["a.mp4", "b.mp4"]
            loop = "playlist"
            rate = 1.5
            [audio]
            volume = 0.5
            """)
        let player = try PlayerProcess(["play", "--config", setup.config, "--video-out", "null", "--audio-out", "null", "--rate", "1"])
        let status = try await player.status()
        #expect(status["item"] == "1/2" && status["source"] == "\(setup.folder)/a.mp4", "\(status)")
        #expect(status["loop"] == "playlist" && status["volume"] == "0.5" && status["rate"] == "1", "\(status)")
        #expect(try await player.reply("quit") == "ok quitting")
        #expect(await player.waitForExit() == 0)
    }

    @Test func aReloadedPlaylistStartsAtTheNextItemAndABadFileIsKeptOut() async throws {
        let setup = try await Blocking.run { try Setup() }
        try setup.write("[playback]\nplaylist = [\"a.mp4\", \"b.mp4\"]\n")
        let player = try PlayerProcess(["play", "--config", setup.config, "--video-out", "null", "--audio-out", "null"])
        #expect(try await player.status()["item"] == "1/2")

        try setup.write("[playback]\nplaylist = [\"c.mp4\"]\n[audio]\nvolume = 0.25\n")
        kill(player.pid, SIGHUP)
        try await Blocking.sleep(0.3)
        var status = try await player.status()
        // a.mp4 plays on; c.mp4 is what follows it now.
        #expect(status["source"] == "\(setup.folder)/a.mp4" && status["item"] == "1/2" && status["volume"] == "0.25", "\(status)")
        #expect(await player.stderrContains("SIGHUP: reloaded \(setup.config): playlist (1 items, from the next item), volume 0.25"))

        // A broken file changes nothing and says why.
        try setup.write("[playback]\nplaylist = [\"b.mp4\"]\n[audio]\nvolume = 2\n")
        #expect(try await player.reply("reload") == "error: reload: \(setup.config) has 1 problem, keeping the previous configuration: "
            + "\(setup.config):4:10: audio.volume: 2 is out of range 0...1")
        #expect(await player.nextLine(timeout: 0.5) == nil, "a reply is one line")
        #expect(await player.stderrContains("    4 | volume = 2\n      |          ^"))

        // Past the boundary (a.mp4 is 2 s long): c.mp4 plays, and a.mp4 has left the playlist.
        var waited = 0
        while status["source"] != "\(setup.folder)/c.mp4", waited < 150 {
            try await Blocking.sleep(0.1)
            waited += 1
            status = try await player.status()
        }
        #expect(status["source"] == "\(setup.folder)/c.mp4", "\(status)")
        #expect(status["volume"] == "0.25")
        #expect(try await player.reply("quit") == "ok quitting")
        #expect(await player.waitForExit() == 0)
    }

    /// Issue 38, must-show 6: a `[[layer]]` layout reloaded with an error
    /// (a layer naming a playlist the file lacks) is refused at its
    /// line:column, and the running layout is kept: `GET /status` still
    /// lists the two layers the player started with.
    @Test func aBadLayerOnReloadKeepsTheRunningLayout() async throws {
        let setup = try await Blocking.run { try Setup() }
        let port = try Loopback.freePort()
        func layout(side playlist: String) -> String {
            """
            [playback]
            loop = "playlist"
            [controls.http]
            listen = "127.0.0.1:\(port)"
            [playlists.side]
            items = ["b.mp4"]
            [[layer]]
            name = "main"
            rect = [0, 0, "50%", "100%"]
            items = ["a.mp4"]
            [[layer]]
            name = "side"
            rect = ["50%", 0, 960, "100%"]
            playlist = "\(playlist)"
            """
        }
        try setup.write(layout(side: "side"))
        let player = try PlayerProcess(["play", "--config", setup.config, "--video-out", "null", "--audio-out", "null"])
        /// `GET /status`'s layers, each "NAME RECT z=Z".
        @Sendable func layers() throws -> [String] {
            let result = try Command.run("curl", ["-s", "-S", "--max-time", "10", "http://127.0.0.1:\(port)/status"], timeout: 20)
            let status = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let layers = status?["layers"] as? [[String: Any]] ?? []
            return layers.map { "\($0["name"] as? String ?? "?") \($0["rect"] as? String ?? "?") z=\($0["z"] as? Int ?? -1)" }
        }
        let original = ["main [0, 0, \"50%\", \"100%\"] z=0", "side [\"50%\", 0, 960, \"100%\"] z=1"]
        #expect(try await player.status()["source"] == "\(setup.folder)/a.mp4")
        var before: [String] = []
        for _ in 0..<100 where before != original {
            before = (try? await Blocking.run { try layers() }) ?? []
            if before != original { try await Blocking.sleep(0.1) }
        }
        #expect(before == original)

        // Line 14, column 12: the value of the second layer's playlist.
        try setup.write(layout(side: "sidebar"))
        #expect(try await player.reply("reload") == "error: reload: \(setup.config) has 1 problem, keeping the previous configuration: "
            + "\(setup.config):14:12: layer[1].playlist: no [playlists.sidebar] in the file")
        #expect(await player.stderrContains("    14 | playlist = \"sidebar\"\n       |            ^"), "\(player.stderr)")
        #expect(try await Blocking.run { try layers() } == original)
        let status = try await player.status()
        #expect(status["state"] == "playing" && status["source"] == "\(setup.folder)/a.mp4", "\(status)")

        // SIGHUP reads it the same way.
        let problem = "\(setup.config):14:12: layer[1].playlist: no [playlists.sidebar] in the file"
        kill(player.pid, SIGHUP)
        var told = false
        for _ in 0..<100 where !told {
            told = player.stderr.components(separatedBy: problem).count == 3
            if !told { try await Blocking.sleep(0.1) }
        }
        #expect(told, "\(player.stderr)")
        #expect(try await Blocking.run { try layers() } == original)
        #expect(try await player.reply("quit") == "ok quitting")
        #expect(await player.waitForExit() == 0)
    }

    @Test func onErrorStopEndsWithStatusOne() async throws {
        let setup = try await Blocking.run { try Setup() }
        try setup.write("[playback]\nplaylist = [\"missing.mp4\", \"a.mp4\"]\non_error = \"stop\"\n[controls.stdin]\nenabled = false\n")
        let result = try await Self.marquee(["play", "--config", setup.config, "--video-out", "null", "--audio-out", "null"], timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains("playlist: 'missing.mp4' does not exist"))
        #expect(result.stderr.contains("on_error = \"stop\": stopping after \(setup.folder)/missing.mp4 failed"))
        // With the default, skip, the same list plays through.
        try setup.write("[playback]\nplaylist = [\"missing.mp4\", \"a.mp4\"]\n")
        let skipped = try await Self.marquee(["play", "--config", setup.config, "--video-out", "null", "--audio-out", "null", "--untimed"],
                                                timeout: 20)
        #expect(skipped.status == 0, "\(skipped.stderr)")
    }

    @Test func aBadConfigStopsPlayBeforeItStarts() async throws {
        let setup = try await Blocking.run { try Setup() }
        try setup.write("[playback]\nloop = \"forever\"\n")
        let result = try await Self.marquee(["play", "--config", setup.config, "--video-out", "null"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(setup.config):2:8: playback.loop: 'forever' is not one of none, item, playlist"))
    }
}
