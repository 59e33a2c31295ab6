import Foundation
import Marquee
import MarqueeKMS
import MarqueeTestSupport
import Testing

/// Issue 21, must-shows 2-4: the HTTP API of a running `marquee play`
/// (libmicrohttpd on a loopback port), driven by curl and raw sockets.
@Suite(.serialized) struct HTTPControlTests {
    static func clip(_ seconds: Int = 4) throws -> String {
        try Fixtures.path(Fixtures.indexed(seconds: seconds, fps: 25, size: "160x96"))
    }

    /// Each route: status, commands (text and JSON, refused and malformed),
    /// events, the playlist, and methods and paths that do not exist.
    @Test func everyRouteAnswers() throws {
        let clip = try Self.clip()
        let server = try HTTPPlayer(inputs: [clip, clip], arguments: ["--loop", "playlist"])
        defer { _ = server.stop() }
        let status = try server.json("/status")
        #expect(status["state"] as? String == "playing", "\(status)")
        #expect((status["playlist"] as? [Any])?.count == 2)
        #expect(status["next"] as? String == clip)
        #expect(status["display"] as? String == "null 1920x1080")
        #expect((status["uptime"] as? Double ?? -1) >= 0)

        #expect(try server.request("/command", method: "POST", body: "pause") == (200, #"{"id":null,"result":"ok"}"#))
        #expect(try server.json("/status")["state"] as? String == "paused")
        #expect(try server.request("/command", method: "POST", body: #"{"command":"get","args":["state"],"id":"s"}"#)
            == (200, #"{"id":"s","result":"paused"}"#))
        let refused = try server.request("/command", method: "POST", body: #"{"command":"goto","args":["9"],"id":4}"#)
        #expect(refused.status == 409 && refused.body.contains("no item 9"), "\(refused)")
        for bad in ["jump", "{\"command\": 5}", "", "seek", String(repeating: "x", count: 5000), "observe state"] {
            let answer = try server.request("/command", method: "POST", body: bad)
            #expect(answer.status == 400 && !answer.body.isEmpty && !answer.body.contains("\n"), "'\(bad.prefix(20))': \(answer)")
        }
        #expect(try server.request("/command", method: "POST", body: "play").status == 200)

        // Events: a pause sent while the stream is open arrives on it, and status events every 0.2 s.
        let stream = try BackgroundCommand("curl", ["-s", "-N", "--max-time", "3", "\(server.url)/events?status=0.2"])
        usleep(800_000)
        _ = try server.request("/command", method: "POST", body: "pause")
        let events = stream.wait().split(separator: "\n").filter { $0.hasPrefix("data: ") }
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any] }
        #expect(events.filter { $0["event"] as? String == "status" }.count >= 8, "\(events.count) events")
        #expect(events.contains { $0["event"] as? String == "state" && $0["state"] as? String == "paused" })
        #expect(try server.request("/events?status=0").status == 400)

        #expect(try server.request("/nope").status == 404)
        let wrongMethod = try server.request("/status", method: "DELETE")
        #expect(wrongMethod.status == 405 && wrongMethod.body == "/status takes GET, not DELETE")
        let page = try server.request("/")
        #expect(page.status == 200 && page.body.contains("<title>Marquee</title>"))
        let playlist = try server.request("/playlist")
        #expect(playlist.status == 200 && playlist.body.contains(clip))
    }

    /// The screenshot is the screen as composed: an EXIF-turned JPEG shown
    /// by the player, against the same picture shown by a player on a
    /// `MemoryDisplay` (the KMS output's composition) at the null output's
    /// 1920x1080; at least 40 dB. `?width=` scales it; a bad width is a 400.
    @Test func theScreenshotIsTheComposedScreen() async throws {
        let picture = "\(SharedMedia.directory)/exif/Portrait_6.jpg"
        let server = try HTTPPlayer(inputs: [picture], arguments: ["--image-duration", "60"])
        defer { _ = server.stop() }
        usleep(1_000_000)
        let shot = "\(server.folder)/shot.png"
        #expect(try server.request("/screenshot.png", output: shot).status == 200)
        let small = "\(server.folder)/small.png"
        #expect(try server.request("/screenshot.png?width=480", output: small).status == 200)
        #expect(try server.request("/screenshot.png?width=0").status == 400)
        #expect(try Self.size(small) == "480x270")

        let screen = try Self.rgb(shot, size: "1920x1080")
        let reference = try await Self.composed(picture, width: 1920, height: 1080)
        let psnr = Self.psnr(screen, reference)
        print("screenshot against the memory display: \(String(format: "%.1f", psnr)) dB")
        #expect(psnr >= 40)
    }

    /// `PUT /playlist`: within the media roots it is saved and plays from
    /// the next item, and a new player starts with it; a path outside the
    /// roots (by `..`, by a symbolic link), a `file:` URL, a missing file
    /// and a body that is not a playlist are each a 400 naming the entry,
    /// and change nothing.
    @Test func aPlaylistSentIsConfinedSavedAndPlayed() throws {
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(media)/shows", withIntermediateDirectories: true)
        let clip = try Self.clip(2)
        try FileManager.default.copyItem(atPath: clip, toPath: "\(media)/shows/a.mp4")
        try FileManager.default.copyItem(atPath: clip, toPath: "\(media)/shows/b.mp4")
        try FileManager.default.createSymbolicLink(atPath: "\(media)/shows/escape.mp4", withDestinationPath: clip)
        let settings = "media_roots = [\"\(media)/shows\"]\nloop = \"playlist\""
        let server = try HTTPPlayer(inputs: [], http: "playlist_file = \"saved.json\"",
                                    playback: "playlist = [\"\(media)/shows/a.mp4\"]\n\(settings)")
        let refusals = [#"["../../etc/passwd"]"#, #"["escape.mp4"]"#, #"["file:///etc/passwd"]"#, #"["concat:a.mp4|b.mp4"]"#,
                        #"["missing.mp4"]"#, #"{"list": []}"#, "not json", #"[{"path": "b.mp4", "duration": -1}]"#, #"[5]"#,
                        #"[{"path": "b.mp4", "captions": "../../etc/passwd"}]"#, #"[{"path": "b.mp4", "captions": 3}]"#]
        for body in refusals {
            let answer = try server.request("/playlist", method: "PUT", body: body)
            #expect(answer.status == 400 && !answer.body.contains("\n"), "\(body): \(answer)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(server.folder)/saved.json"))
        let sent = try server.request("/playlist", method: "PUT", body: #"{"playlist": ["b.mp4", {"path": "a.mp4", "duration": 3}]}"#)
        #expect(sent.status == 200, "\(sent)")
        let saved = try String(contentsOfFile: "\(server.folder)/saved.json", encoding: .utf8)
        #expect(saved.contains("\(media)/shows/b.mp4") && saved.contains("\(media)/shows/a.mp4"))
        // From the next item: a's 2 s end, then b.
        usleep(3_500_000)
        let status = try server.json("/status")
        #expect((status["source"] as? String)?.hasSuffix("/shows/b.mp4") == true, "\(status)")
        let first = server.stop()
        #expect(first.stderr.split(separator: "\n").allSatisfy { $0.contains("playlist:") } || first.stderr.isEmpty, "\(first.stderr)")

        // The next start plays the saved playlist, not the file's.
        let again = try HTTPPlayer(inputs: [], http: "playlist_file = \"saved.json\"",
                                   playback: "playlist = [\"\(media)/shows/a.mp4\"]\n\(settings)", folder: server.folder)
        defer { _ = again.stop() }
        let sources = (try again.json("/status")["playlist"] as? [[String: Any]])?.compactMap { $0["source"] as? String } ?? []
        #expect(sources == ["\(media)/shows/b.mp4", "\(media)/shows/a.mp4"])
    }

    /// A crash between the write and the rename (the test hook holds the
    /// player there; kill -9): the old playlist is intact and is what the
    /// next start plays.
    @Test func aCrashBetweenWriteAndRenameKeepsTheOldPlaylist() throws {
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        let clip = try Self.clip(2)
        for name in ["a.mp4", "b.mp4"] { try FileManager.default.copyItem(atPath: clip, toPath: "\(media)/\(name)") }
        let keys = (http: "playlist_file = \"saved.json\"", playback: "media_roots = [\"\(media)\"]\nloop = \"playlist\"")
        let first = try HTTPPlayer(inputs: [clip], http: keys.http, playback: keys.playback)
        #expect(try first.request("/playlist", method: "PUT", body: #"["a.mp4"]"#).status == 200)
        _ = first.stop()
        let old = try String(contentsOfFile: "\(first.folder)/saved.json", encoding: .utf8)

        let second = try HTTPPlayer(inputs: [clip], http: keys.http, playback: keys.playback,
                                    environment: ["MARQUEE_TEST_PLAYLIST_RENAME_DELAY": "30"], folder: first.folder)
        let put = try BackgroundCommand("curl", ["-s", "--max-time", "40", "-X", "PUT", "--data-binary", #"["b.mp4"]"#,
                                                 "\(second.url)/playlist"])
        #expect(second.player.waitForError(containing: "renaming in 30"), "the write never reached the rename")
        kill(second.player.pid, SIGKILL)
        _ = put.wait()
        _ = second.stop()
        #expect(try String(contentsOfFile: "\(first.folder)/saved.json", encoding: .utf8) == old, "the playlist file was torn or replaced")

        let third = try HTTPPlayer(inputs: [], http: keys.http, playback: keys.playback, folder: first.folder)
        defer { _ = third.stop() }
        let sources = (try third.json("/status")["playlist"] as? [[String: Any]])?.compactMap { $0["source"] as? String } ?? []
        #expect(sources == ["\(media)/a.mp4"])
    }

    /// Beyond loopback without a token or TLS the file is refused at the
    /// start, naming the key's line and column; with both, a request
    /// without the token (or with another) is a 401 (but for the status
    /// page itself, which holds no data), plain HTTP is not answered, and
    /// the token over TLS works.
    @Test func beyondLoopbackNeedsATokenAndTLS() throws {
        let clip = try Self.clip()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locks-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, keys) in [("no token", "cert_file = \"c.pem\"\nkey_file = \"k.pem\""), ("no TLS", "token_file = \"token\""), ("neither", "")] {
            try "[controls.http]\nlisten = \"0.0.0.0:8443\"\n\(keys)\n".write(toFile: "\(folder)/open.toml", atomically: true, encoding: .utf8)
            let result = try MarqueeExecutable.run(["play", clip, "--config", "\(folder)/open.toml", "--video-out", "null",
                                                    "--audio-out", "null"], timeout: 20)
            #expect(result.status == 1, "\(name)")
            #expect(result.stderr.contains("open.toml:2:10: controls.http.listen: listening on '0.0.0.0:8443', beyond loopback, needs"),
                    "\(name): \(result.stderr)")
        }

        let made = try Command.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                                               "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", "\(folder)/k.pem", "-out", "\(folder)/c.pem"])
        try #require(made.status == 0)
        try "s3cret-token\n".write(toFile: "\(folder)/token", atomically: true, encoding: .utf8)
        let server = try HTTPPlayer(inputs: [clip], http: "token_file = \"\(folder)/token\"\ncert_file = \"\(folder)/c.pem\"\nkey_file = \"\(folder)/k.pem\"",
                                    host: "0.0.0.0", tls: true, arguments: ["--loop", "item"])
        defer { _ = server.stop() }
        server.curlExtras = ["--cacert", "\(folder)/c.pem"]
        #expect(try server.request("/status").status == 401)
        #expect(try server.request("/status", extra: ["-H", "Authorization: Bearer wrong"]).status == 401)
        #expect(try server.request("/screenshot.png").status == 401)
        // The status page holds no data (its script asks for the token), so it is served without one.
        let page = try server.request("/")
        #expect(page.status == 200 && page.body.contains("marquee-token"))
        let allowed = try server.request("/status", extra: ["-H", "Authorization: Bearer s3cret-token"])
        #expect(allowed.status == 200 && allowed.body.contains("\"state\":\"playing\""), "\(allowed)")
        let plain = try Command.run("curl", ["-s", "--max-time", "5", "-o", "/dev/null", "-w", "%{http_code}",
                                             "http://127.0.0.1:\(server.port)/status"], timeout: 10)
        #expect(plain.stdout == "000", "plain HTTP to the TLS port got \(plain.stdout)")
    }

    /// 1,000 malformed and oversized requests on raw sockets, and six slow
    /// clients sending a byte a second, holding 6 of the 8 connections one
    /// address may have: each request is answered (4xx) or cut by a limit,
    /// the slow clients are cut by the request deadline, the player drops no
    /// frame, and its descriptors are back where they were.
    @Test func malformedAndSlowRequestsDoNotDisturbThePlayer() throws {
        let clip = try Self.clip()
        let server = try HTTPPlayer(inputs: [clip], arguments: ["--loop", "item"])
        defer { _ = server.stop() }
        usleep(500_000)
        let fds = { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.player.pid)/fd").count) ?? -1 }
        let before = fds()
        let started = Date()
        let slow = (0..<6).map { _ in SlowClient(port: server.port) }
        var generator = SeededGenerator(seed: 21)
        var answered = 0, cut = 0, wrong: [String] = []
        for index in 0..<1000 {
            let request = MalformedRequests.make(index, using: &generator)
            switch RawHTTP.exchange(request, port: server.port) {
            case .status(let code) where (400..<500).contains(code): answered += 1
            case .closed: cut += 1
            case .status(let code): wrong.append("\(index): \(code) for \(String(decoding: request.prefix(60), as: UTF8.self))")
            }
        }
        print("1000 malformed requests: \(answered) answered 4xx, \(cut) cut by a limit")
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(answered > 500)
        // A request must arrive whole within the idle limit (10 s) and a second: the slow ones are cut.
        let cutBy = started.addingTimeInterval(14)
        while !slow.allSatisfy(\.wasCut), Date() < cutBy { usleep(100_000) }
        let allCut = slow.allSatisfy(\.wasCut)
        let elapsed = Date().timeIntervalSince(started)
        #expect(allCut, "slow clients still connected \(elapsed) s in")
        slow.forEach { $0.stop() }
        let stats = try server.json("/status")
        #expect(stats["framesDropped"] as? Int == 0, "\(stats)")
        var after = fds()
        let deadline = Date().addingTimeInterval(15)
        while after != before, Date() < deadline {
            usleep(100_000)
            after = fds()
        }
        #expect(after == before, "descriptors \(before) -> \(after)")
    }

    // MARK: Pictures

    static func size(_ png: String) throws -> String {
        let result = try Command.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                                 "-of", "csv=s=x:p=0", png])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func rgb(_ png: String, size: String) throws -> [UInt8] {
        #expect(try Self.size(png) == size)
        let raw = png + ".rgb"
        let result = try Command.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", png, "-f", "rawvideo",
                                                "-pix_fmt", "rgb24", raw])
        guard result.status == 0 else { throw CommandError.failed("ffmpeg \(png)", result) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// What a player shows of `path` on a memory display composed as the KMS output composes.
    static func composed(_ path: String, width: Int, height: Int) async throws -> [UInt8] {
        let clock = VirtualClock()
        let display = MemoryDisplay(width: width, height: height, clock: clock)
        var configuration = PlayerConfiguration(videoOutput: display, audioOutput: nil, hostClock: clock, untimed: true,
                                                hardwareDecoding: .software)
        configuration.imageDuration = 1
        let player = QueuePlayer(items: [PlayerItem(source: path)], configuration: configuration)
        let events = player.events()
        player.play()
        for await event in events {
            if case .playbackFinished = event { break }
        }
        player.stop()
        return display.screen()
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        let squared = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(a.count)
        return squared == 0 ? .infinity : 10 * log10(255 * 255 / squared)
    }
}
