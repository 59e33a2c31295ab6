import Foundation
import MarqueeTestSupport
import Testing

/// Issue 39: an overlay tied to an item's time (`item`, `from`, `until`),
/// AVSynchronizedLayer's role: on the memory display `--video-out null`
/// composes, a red square shows over the grey clip only between 1 and 2 s
/// of that clip, by the time paused seeks land on, and not over another item.
@Suite(.serialized) struct ItemTimedOverlayTests {
    @Test func anOverlayShowsOnlyInsideItsItemsWindow() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let grey = try Fixtures.path(Fixtures.plain("0x808080", seconds: 4))
        let white = try Fixtures.path(Fixtures.plain("white", seconds: 4))
        let square = "\(folder)/red.png"
        _ = try Command.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=red:size=200x200", "-frames:v", "1", square])
        let port = try Loopback.freePort()
        let config = "\(folder)/marquee.toml"
        try """
            [playback]
            playlist = ["\(grey)", "\(white)"]
            loop = "playlist"
            [controls.http]
            listen = "127.0.0.1:\(port)"
            [[overlay]]
            name = "promo"
            kind = "image"
            path = "\(square)"
            rect = [860, 440, 200, 200]
            item = "\(URL(fileURLWithPath: grey).lastPathComponent)"
            from = 1.0
            until = 2.0
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let player = try PlayerProcess(["play", "--config", config, "--video-out", "null", "--audio-out", "null"])
        /// The mean red and green of the square's place on the screen.
        @Sendable func squareColour(_ name: String) throws -> (red: Double, green: Double) {
            let png = "\(folder)/\(name).png", raw = "\(folder)/\(name).rgb"
            let got = try Command.run("curl", ["-s", "-o", png, "-w", "%{http_code}", "--max-time", "10", "http://127.0.0.1:\(port)/screenshot.png"],
                                      timeout: 20)
            try #require(got.stdout == "200", "screenshot: \(got.stdout)")
            _ = try Command.run("ffmpeg", ["-v", "error", "-y", "-i", png, "-vf", "crop=200:200:860:440", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
            let pixels = Double(max(bytes.count / 3, 1))
            return (stride(from: 0, to: bytes.count, by: 3).reduce(0.0) { $0 + Double(bytes[$1]) } / pixels,
                    stride(from: 1, to: bytes.count, by: 3).reduce(0.0) { $0 + Double(bytes[$1]) } / pixels)
        }
        #expect(try await player.reply("pause") == "ok")
        var seen: [String] = []
        for (name, command) in [("before", "seek 0.5"), ("inside", "seek 1.5"), ("after", "seek 2.5"), ("back inside", "seek 1.2")] {
            #expect(try await player.reply(command) == "ok")
            try await Blocking.sleep(0.6)
            let (red, green) = try await Blocking.run { try squareColour(name.replacingOccurrences(of: " ", with: "-")) }
            seen.append("\(name): \(red > 250 && green < 5 ? "red" : abs(red - 128) < 3 && abs(green - 128) < 3 ? "grey" : "\(Int(red)),\(Int(green))")")
        }
        #expect(try await player.reply("next") == "ok")
        try await Blocking.sleep(0.3)
        #expect(try await player.reply("pause") == "ok")
        #expect(try await player.reply("seek 1.5") == "ok")
        try await Blocking.sleep(0.6)
        let (red, green) = try await Blocking.run { try squareColour("other") }
        seen.append("other item: \(red > 250 && green > 250 ? "white" : "\(Int(red)),\(Int(green))")")
        #expect(seen == ["before: grey", "inside: red", "after: grey", "back inside: red", "other item: white"])
        #expect(try await player.reply("quit") == "ok quitting")
        #expect(await player.waitForExit() == 0)
    }
}
