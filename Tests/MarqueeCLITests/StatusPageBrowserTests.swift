import Foundation
import MarqueeTestSupport
import Testing

/// Issue 21, must-show 5: the status page in a real headless browser
/// (Debian's Chromium, driven over the DevTools protocol by
/// Browser/status_page.py): it loads with no console error or exception,
/// shows the screenshot and the item playing, and its Pause button pauses
/// the player. A screenshot of the page is kept in .build/artefacts.
@Suite(.serialized) struct StatusPageBrowserTests {
    @Test func theStatusPageShowsThePlayerAndPausesIt() throws {
        let clip = try HTTPControlTests.clip()
        let server = try HTTPPlayer(inputs: [clip], arguments: ["--loop", "item"])
        defer { _ = server.stop() }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let artefacts = root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/artefacts")
        try FileManager.default.createDirectory(at: artefacts, withIntermediateDirectories: true)
        let shot = artefacts.appendingPathComponent("status-page.png").path
        let name = (clip as NSString).lastPathComponent
        let result = try Command.run("python3", [root.appendingPathComponent("Browser/status_page.py").path, "\(server.url)/", name, shot],
                                     timeout: 90)
        try #require(result.status == 0, "\(result.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        print("status page: \(seen)")
        #expect(seen["showsItemAndScreen"] as? Bool == true, "\(seen)")
        #expect((seen["screenWidth"] as? Int ?? 0) > 0)
        let console = (seen["console"] as? [[String: Any]] ?? []).filter { ["error", "warning", "assert"].contains($0["type"] as? String) }
        #expect(console.isEmpty, "console: \(console)")
        #expect((seen["exceptions"] as? [Any] ?? []).isEmpty, "exceptions: \(seen["exceptions"] ?? [])")
        let logged = (seen["logEntries"] as? [[String: Any]] ?? []).filter { $0["level"] as? String == "error" }
        #expect(logged.isEmpty, "browser log: \(logged)")
        #expect(try server.json("/status")["state"] as? String == "paused", "the page's Pause did not pause the player")
        #expect((seen["stateShown"] as? String)?.hasPrefix("paused") == true, "\(seen["stateShown"] ?? "")")
        #expect(FileManager.default.fileExists(atPath: shot))
    }
}
