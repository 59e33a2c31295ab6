import Foundation
import MarqueeTestSupport
import Testing

/// Issue 39: an overlay with `layer = NAME` is placed inside that layer's
/// rectangle, its `rect` and `anchor` counted from the layer's corner and
/// size (here on the 1920x1080 memory display `--video-out null` composes).
@Suite(.serialized) struct OverlayInLayerTests {
    @Test func anOverlaysRectIsInsideItsLayer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inlayer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let grey = try Fixtures.path(Fixtures.plain("0x808080"))
        let square = "\(folder)/red.png"
        _ = try Command.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=red:size=100x100", "-frames:v", "1", square])
        let port = try Loopback.freePort()
        let config = "\(folder)/marquee.toml"
        try """
            [playback]
            loop = "playlist"
            [controls.http]
            listen = "127.0.0.1:\(port)"
            [[layer]]
            name = "panel"
            rect = ["50%", "50%", "50%", "50%"]
            gravity = "resize"
            items = ["\(grey)"]
            [[overlay]]
            kind = "image"
            path = "\(square)"
            layer = "panel"
            rect = ["10%", 20, 100, 100]
            [[overlay]]
            kind = "image"
            path = "\(square)"
            layer = "panel"
            anchor = "bottom-right"
            margin = 10
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let player = try PlayerProcess(["play", "--config", config, "--video-out", "null", "--audio-out", "null"])
        let png = "\(folder)/screen.png", raw = "\(folder)/screen.rgb"
        /// The overlays' rects in `GET /status` once both are placed, and a screenshot taken after.
        var rects: [String] = []
        // Counted in tries, not seconds: beside suites that hold the cooperative threads, this one may not run for a while.
        for _ in 0..<600 where rects.count != 2 {
            try await Blocking.sleep(0.1)
            _ = try? await Blocking.run {
                try Command.run("curl", ["-s", "-o", "\(folder)/status.json", "--max-time", "5", "http://127.0.0.1:\(port)/status"], timeout: 10)
            }
            let status = FileManager.default.contents(atPath: "\(folder)/status.json")
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
            rects = (status["overlays"] as? [[String: Any]])?.compactMap { $0["rect"] as? String } ?? []
        }
        // The panel is 960x540 at 960,540: 10% of its width is 96.
        #expect(rects == ["100x100+1056+560", "100x100+1810+970"], "\(rects); marquee said: \(player.stderr)")
        // Screenshots until the panel's clip is up (it starts after the overlays are placed).
        var bytes: [UInt8] = []
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(bytes[(y * 1920 + x) * 3..<(y * 1920 + x) * 3 + 3]) }
        for _ in 0..<200 where bytes.count != 1920 * 1080 * 3 || abs(Int(pixel(1000, 600)[1]) - 128) >= 3 {
            try await Blocking.sleep(0.3)
            _ = try await Blocking.run {
                try Command.run("curl", ["-s", "-o", png, "--max-time", "10", "http://127.0.0.1:\(port)/screenshot.png"], timeout: 20)
            }
            _ = try Command.run("ffmpeg", ["-v", "error", "-y", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
            bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))) ?? []
        }
        try #require(bytes.count == 1920 * 1080 * 3 && abs(Int(pixel(1000, 600)[1]) - 128) < 3, "the panel's clip never showed")
        #expect(pixel(1106, 610)[0] > 250 && pixel(1106, 610)[1] < 5, "no red square at 1056,560 + 50: \(pixel(1106, 610))")
        #expect(pixel(1860, 1020)[0] > 250 && pixel(1860, 1020)[1] < 5, "no red square at the panel's bottom right: \(pixel(1860, 1020))")
        #expect(try await player.reply("quit") == "ok quitting")
        #expect(await player.waitForExit() == 0)
    }
}
