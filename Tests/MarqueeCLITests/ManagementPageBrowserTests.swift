import Foundation
import MarqueeTestSupport
import Testing

/// Issue 37, must-show 2: the management page in headless Chromium
/// (Browser/management_page.py). A video dropped on the page and a picture
/// turned by EXIF chosen with the picker arrive and show their thumbnails;
/// added to the playlist, reordered (a dragged row, an arrow) and the
/// picture given a duration, then saved: that is what `GET /playlist`
/// returns and what plays. No console error or exception on the way. The
/// page's screenshot is kept in .build/artefacts (docs/images has a copy).
@Suite(.serialized) struct ManagementPageBrowserTests {
    @Test func filesDroppedOnThePageAreUploadedArrangedAndPlayed() throws {
        let (server, media) = try MediaAPITests.player()
        defer { _ = server.stop() }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let artefacts = root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/artefacts")
        try FileManager.default.createDirectory(at: artefacts, withIntermediateDirectories: true)
        let shot = artefacts.appendingPathComponent("management-page.png").path
        // Names as a person's files have them: spaces, and a file of pixel aspect 32:27.
        let video = "\(server.folder)/Shop window 32x27.mkv", picture = "\(server.folder)/Menu turned.jpg"
        try FileManager.default.copyItem(atPath: "\(SharedMedia.directory)/interlace/bt601-525_480_interlaced_tff.mkv", toPath: video)
        try FileManager.default.copyItem(atPath: "\(SharedMedia.directory)/exif/Landscape_6.jpg", toPath: picture)

        let result = try Command.run("python3", [root.appendingPathComponent("Browser/management_page.py").path, "\(server.url)/",
                                                 video, picture, "3", shot], timeout: 150)
        try #require(result.status == 0, "\(result.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        print("management page: \(seen)")
        #expect(seen["uploadsShown"] as? Bool == true, "\(seen)")
        #expect(seen["thumbnailsDrawn"] as? Bool == true, "\(seen)")
        #expect(seen["progress"] as? [Int] == [100, 100], "\(seen)")
        #expect((seen["cardMeta"] as? String)?.contains("853\u{D7}480") == true, "\(seen)")
        #expect(seen["saved"] as? Bool == true, "\(seen)")
        #expect((seen["afterDown"] as? [String])?.first == video.replacing(server.folder, with: media), "the arrow did not move the row: \(seen)")
        let console = (seen["console"] as? [[String: Any]] ?? []).filter { ["error", "warning", "assert"].contains($0["type"] as? String) }
        #expect(console.isEmpty, "console: \(console)")
        #expect((seen["exceptions"] as? [Any] ?? []).isEmpty, "exceptions: \(seen["exceptions"] ?? [])")
        #expect((seen["logEntries"] as? [[String: Any]] ?? []).filter { $0["level"] as? String == "error" }.isEmpty, "\(seen)")
        #expect(Set(MediaAPITests.names(in: media)) == ["Shop window 32x27.mkv", "Menu turned.jpg"])

        // What was saved is what GET /playlist returns: the picture first with its 3 s, then the video, then the clip it had.
        let (status, body) = try server.request("/playlist?entries")
        try #require(status == 200, "\(body)")
        let saved = try #require((try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["playlist"] as? [Any])
        #expect(saved.count == 2, "\(saved)")
        #expect((saved.first as? [String: Any])?["path"] as? String == "\(media)/Menu turned.jpg", "\(saved)")
        #expect((saved.first as? [String: Any])?["duration"] as? Double == 3, "\(saved)")
        #expect(saved.last as? String == "\(media)/Shop window 32x27.mkv", "\(saved)")
        let queue = try #require(try JSONSerialization.jsonObject(with: Data(try server.request("/playlist").body.utf8)) as? [[String: Any]])
        #expect(queue.contains { $0["source"] as? String == "\(media)/Menu turned.jpg" && $0["duration"] as? Double == 3 }, "\(queue)")

        // And it plays: the picture for its 3 s, then the video.
        var shown: [String] = []
        let deadline = Date().addingTimeInterval(25)
        while Date() < deadline, !shown.contains("\(media)/Shop window 32x27.mkv") {
            let source = try server.json("/status")["source"] as? String ?? ""
            if shown.last != source { shown.append(source) }
            usleep(200_000)
        }
        #expect(shown.contains("\(media)/Menu turned.jpg") && shown.contains("\(media)/Shop window 32x27.mkv"), "\(shown)")
        #expect(FileManager.default.fileExists(atPath: shot))
    }
}
