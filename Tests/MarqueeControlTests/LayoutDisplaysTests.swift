import Foundation
import MarqueeTestSupport
import Testing

/// Issue 38: a layout whose layers name two displays (here in memory, as
/// `--video-out null` composes them; the board does it on two KMS heads).
/// Each display shows only its own layers, `GET /status` says which display
/// each layer is on, and `/screenshot.png?display=NAME` is that display.
@Suite(.serialized) struct LayoutDisplaysTests {
    @Test func eachDisplayShowsItsOwnLayers() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("displays-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let white = try Fixtures.path(Fixtures.plain("white"))
        let grey = try Fixtures.path(Fixtures.plain("0x808080"))
        let port = try Loopback.freePort()
        let config = "\(folder)/marquee.toml"
        try """
            [playback]
            loop = "playlist"
            [controls.http]
            listen = "127.0.0.1:\(port)"
            [[layer]]
            name = "video"
            display = "left"
            rect = [0, 0, "50%", "50%"]
            gravity = "resize"
            items = ["\(white)"]
            [[layer]]
            name = "panel"
            display = "right"
            rect = ["50%", "50%", "50%", "50%"]
            gravity = "resize"
            items = ["\(grey)"]
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let player = try PlayerProcess(["play", "--config", config, "--video-out", "null", "--audio-out", "null"])
        @Sendable func get(_ path: String, to file: String) throws -> Int {
            let result = try Command.run("curl", ["-s", "-o", file, "-w", "%{http_code}", "--max-time", "10", "http://127.0.0.1:\(port)\(path)"],
                                         timeout: 20)
            return Int(result.stdout) ?? 0
        }
        /// The four quarters' mean levels of a 1920x1080 screenshot, top left first.
        @Sendable func quarters(_ png: String) throws -> [Double] {
            try (0..<4).map { quarter in
                let raw = "\(png).\(quarter).rgb"
                _ = try Command.run("ffmpeg", ["-v", "error", "-y", "-i", png, "-vf", "crop=960:540:\(quarter % 2 * 960):\(quarter / 2 * 540)",
                                               "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
                let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
                return Double(bytes.reduce(0) { $0 + Int($1) }) / Double(max(bytes.count, 1))
            }
        }
        var layers: [[String: Any]] = []
        for _ in 0..<150 where layers.count != 2 || !layers.allSatisfy({ $0["ready"] as? Bool == true }) {
            try await Blocking.sleep(0.1)
            if (try? await Blocking.run { try get("/status", to: "\(folder)/status.json") }) == 200,
               let data = FileManager.default.contents(atPath: "\(folder)/status.json"),
               let status = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                layers = status["layers"] as? [[String: Any]] ?? []
            }
        }
        #expect(layers.map { "\($0["name"] as? String ?? "?") on \($0["display"] as? String ?? "?")" } == ["video on left", "panel on right"])
        try await Blocking.sleep(0.3)

        #expect(try await Blocking.run { try get("/screenshot.png?display=left", to: "\(folder)/left.png") } == 200)
        let left = try await Blocking.run { try quarters("\(folder)/left.png") }
        #expect(left[0] > 250 && left[1...].allSatisfy { $0 < 1 }, "left: \(left)")
        #expect(try await Blocking.run { try get("/screenshot.png?display=right", to: "\(folder)/right.png") } == 200)
        let right = try await Blocking.run { try quarters("\(folder)/right.png") }
        #expect(right[0..<3].allSatisfy { $0 < 1 } && abs(right[3] - 128) < 2, "right: \(right)")
        // No display named: the first one the layout names.
        #expect(try await Blocking.run { try get("/screenshot.png", to: "\(folder)/first.png") } == 200)
        #expect(try await Blocking.run { try quarters("\(folder)/first.png") } == left)

        #expect(try await Blocking.run { try get("/screenshot.png?display=HDMI-A-1", to: "\(folder)/none.txt") } == 404)
        let refusal = (try? String(contentsOfFile: "\(folder)/none.txt", encoding: .utf8)) ?? ""
        #expect(refusal.contains("display=HDMI-A-1: no such display (have: left, right)"), "\(refusal)")

        #expect(try await player.reply("quit") == "ok quitting")
        #expect(await player.waitForExit() == 0)
    }
}
