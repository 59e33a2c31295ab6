import Foundation
import MarqueeTestSupport
import Testing

/// `PUT /schedule` and `GET /schedule` on the real binary (issue 36): a bad
/// schedule is refused with its line:column while the show goes on; a good
/// one is saved beside the playlist store and followed at once.
@Suite struct ScheduleHTTPTests {
    @Test func aScheduleSentIsCheckedSavedAndFollowed() throws {
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("schedule-roots-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.path(Fixtures.indexed(seconds: 2)), toPath: "\(media)/a.mp4")
        try FileManager.default.copyItem(atPath: try Fixtures.path(Fixtures.indexed(seconds: 2, size: "160x120")), toPath: "\(media)/b.mp4")
        let server = try HTTPPlayer(inputs: [], http: "playlist_file = \"saved.json\"",
                                    playback: "playlist = [\"\(media)/a.mp4\"]\nmedia_roots = [\"\(media)\"]\nloop = \"playlist\"")
        defer { _ = server.stop() }
        #expect(try server.request("/schedule").status == 404, "a schedule answered before one was sent")

        let refusals: [(body: String, at: String)] = [
            ("[[schedule]]\nplaylist = \"nope\"\nfrom = \"08:00\"\nuntil = \"09:00\"\n", "schedule:2:12: "),
            ("[playlists.b]\nitems = [\"b.mp4\"]\n\n[display]\nmode = \"1920x1080\"\n", "schedule:4:2: "),
            ("[[schedule]]\nscreen = \"off\"\ndays = [\"mon\", \"funday\"]\n", "schedule:3:16: "),
            ("[[schedule]]\nscreen = \"off\"\nfrom = \"25:00\"\nuntil = \"06:00\"\n", "schedule:3:8: "),
            ("[[schedule]\nscreen = \"off\"\n", "schedule:1:"),
        ]
        for refusal in refusals {
            let answer = try server.request("/schedule", method: "PUT", body: refusal.body)
            #expect(answer.status == 400, "\(refusal.body): \(answer)")
            #expect(answer.body.hasPrefix(refusal.at), "\(refusal.body): \(answer.body)")
        }
        let outside = try server.request("/schedule", method: "PUT", body: "[playlists.x]\nitems = [\"/etc/passwd\"]\n")
        #expect(outside.status == 400 && outside.body.contains("playlists.x.items[0]"), "\(outside)")
        #expect(!FileManager.default.fileExists(atPath: "\(server.folder)/schedule.toml"), "a refused schedule was saved")
        let still = try server.json("/status")
        #expect(still["state"] as? String == "playing" && (still["source"] as? String)?.hasSuffix("/a.mp4") == true, "\(still)")

        // Every day, all day: b at once (the clock trusted, as this machine's NTP status may say unsynchronised).
        let schedule = "[playlists.b]\nitems = [\"b.mp4\"]\n\n[[schedule]]\nplaylist = \"b\"\n\n[schedule_options]\ntrust_clock = true\n"
        let sent = try server.request("/schedule", method: "PUT", body: schedule)
        #expect(sent.status == 200, "\(sent)")
        #expect(try String(contentsOfFile: "\(server.folder)/schedule.toml", encoding: .utf8) == schedule)
        var status: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            status = try server.json("/status")
            if (status["source"] as? String)?.hasSuffix("/b.mp4") == true { break }
            usleep(50_000)
        }
        #expect((status["source"] as? String)?.hasSuffix("/b.mp4") == true, "the schedule was not followed: \(status)")
        let summary = try #require(status["schedule"] as? [String: Any], "\(status)")
        #expect(summary["showing"] as? String == "playlist b")
        let (code, body) = try server.request("/schedule")
        #expect(code == 200)
        let segments = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]])
        #expect(segments.count == 1 && segments.first?["playlist"] as? String == "b" && segments.first?["screen"] as? String == "on", "\(body)")
    }
}
