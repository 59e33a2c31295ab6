import Foundation
import MarqueeTestSupport
import Testing

/// Issue 37, must-show 1: the media routes against the real server and a
/// playing player. Uploads of awkward real files (pixel aspect 32:27 and
/// interlaced, a 90-degree display matrix, a JPEG turned by EXIF, sound
/// alone), their listing, thumbnails, the playlist, deletion; every refusal
/// with its code and nothing left in the folder; a full disk; kill -9 in
/// the middle of an upload.
@Suite(.serialized) struct MediaAPITests {
    /// A player whose upload folder is `media/` under its own folder.
    static func player(maxUploadMB: Int = 64, inputs: [String]? = nil, media: String? = nil) throws -> (HTTPPlayer, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("media-\(UUID().uuidString)").path
        let uploads = media ?? "\(folder)/media"
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        let server = try HTTPPlayer(inputs: try inputs ?? [HTTPControlTests.clip(2)],
                                    http: "playlist_file = \"saved.json\"\nmax_upload_mb = \(maxUploadMB)",
                                    playback: "media_roots = [\"\(uploads)\"]\nloop = \"playlist\"", folder: folder)
        return (server, uploads)
    }

    /// PUT of a file, with its length or chunked.
    static func upload(_ file: String, as name: String, to server: HTTPPlayer, chunked: Bool = false,
                       headers: [String] = []) throws -> (status: Int, body: String) {
        var extra = ["-T", file] + headers.flatMap { ["-H", $0] }
        if chunked { extra += ["-H", "Transfer-Encoding: chunked"] }
        return try server.request("/media/\(name)", method: "PUT", extra: extra)
    }

    /// Every name in the folder, hidden ones included, but the thumbnail cache.
    static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0 != ".thumbnails" }.sorted()
    }

    /// The width and height a PNG's IHDR chunk states.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes[0...7] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        func big(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }

    static let shared: [(file: String, name: String, kind: String, width: Int?, height: Int?)] = [
        ("interlace/bt601-525_480_interlaced_tff.mkv", "interlaced 32:27.mkv", "video", 853, 480),
        ("androidx/internal_emulator_transformer_output_270_rotated.mp4", "turned.mp4", "video", 720, 1280),
        ("exif/Landscape_6.jpg", "menu – café.jpg", "image", 1800, 1200),
        ("androidx/bear-id3.mp3", "jingle.mp3", "audio", nil, nil),
    ]

    @Test func uploadedFilesAreListedThumbnailedPlayedAndDeleted() throws {
        let (server, media) = try Self.player()
        defer { _ = server.stop() }
        for entry in Self.shared {
            let path = "\(SharedMedia.directory)/\(entry.file)"
            let encoded = entry.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))!
            let (status, body) = try Self.upload(path, as: encoded, to: server)
            #expect(status == 201, "\(entry.name): \(body)")
            let stored = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
            #expect(stored["name"] as? String == entry.name)
            #expect(FileManager.default.contentsEqual(atPath: path, andPath: "\(media)/\(entry.name)"), "\(entry.name) arrived changed")
        }
        let again = try Self.upload("\(SharedMedia.directory)/\(Self.shared[0].file)", as: "interlaced%2032%3A27.mkv", to: server)
        #expect(again.status == 200, "a second upload under a name replaces the file: \(again)")

        let (status, body) = try server.request("/media")
        try #require(status == 200, "\(body)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String ?? "" } == Self.shared.map(\.name).sorted())
        for entry in Self.shared {
            let path = "\(SharedMedia.directory)/\(entry.file)"
            let file = try #require(listed.first { $0["name"] as? String == entry.name }, "\(entry.name) is not listed")
            #expect(file["kind"] as? String == entry.kind, "\(entry.name): \(file)")
            #expect(file["width"] as? Int == entry.width && file["height"] as? Int == entry.height, "\(entry.name) as displayed: \(file)")
            let bytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(file["bytes"] as? Int == bytes, "\(entry.name): \(file)")
            #expect(file["inPlaylist"] as? Bool == false)
            #expect((file["modified"] as? String)?.count ?? 0 >= 24, "\(file)")
            if entry.kind == "image" {
                #expect(file["duration"] is NSNull, "a picture has no duration of its own: \(file)")
            } else {
                let expected = try #require(try FFprobe.formatDuration(path))
                #expect(abs((file["duration"] as? Double ?? -1) - expected) < 0.1, "\(entry.name): \(file), ffprobe \(expected)")
            }
        }

        // Thumbnails, as the display shows the picture, cached and served again.
        for entry in Self.shared {
            let encoded = entry.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))!
            let png = "\(server.folder)/thumb.png"
            try? FileManager.default.removeItem(atPath: png)
            let (status, body) = try server.request("/media/\(encoded)/thumbnail.png?width=200", output: png)
            guard let width = entry.width, let height = entry.height else {
                #expect(status == 404, "sound alone has no thumbnail: \(status) \(body)")
                continue
            }
            #expect(status == 200, "\(entry.name): \(body)")
            let size = try #require(Self.pngSize(try Data(contentsOf: URL(fileURLWithPath: png))), "\(entry.name): not a PNG")
            #expect(max(size.width, size.height) <= 200 && max(size.width, size.height) >= 190, "\(entry.name): \(size)")
            let shape = Double(size.width) / Double(size.height), expected = Double(width) / Double(height)
            #expect(abs(shape - expected) / expected < 0.03, "\(entry.name): thumbnail \(size), displayed \(width)x\(height)")
        }
        let cached = Self.names(in: "\(media)/.thumbnails")
        #expect(cached.count == 3, "\(cached)")
        #expect(try server.request("/media/jingle.mp3/thumbnail.png?width=9").status == 400)

        // Into the playlist, and on screen.
        let put = try server.request("/playlist", method: "PUT",
                                     body: #"{"playlist": [{"path": "menu – café.jpg", "duration": 2}, "turned.mp4"]}"#)
        #expect(put.status == 200, "\(put)")
        var sources: [String] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !sources.contains("\(media)/menu – café.jpg") {
            sources.append(try server.json("/status")["source"] as? String ?? "")
            usleep(200_000)
        }
        #expect(sources.contains("\(media)/menu – café.jpg"), "the uploaded picture never played: \(Set(sources))")
        let used = try #require(try JSONSerialization.jsonObject(with: Data(try server.request("/media").body.utf8)) as? [[String: Any]])
        #expect(Set(used.filter { $0["inPlaylist"] as? Bool == true }.compactMap { $0["name"] as? String }) == ["menu – café.jpg", "turned.mp4"])

        // Deleted: out of the folder, its thumbnails and the saved playlist.
        let deleted = try server.request("/media/menu%20%E2%80%93%20caf%C3%A9.jpg", method: "DELETE")
        #expect(deleted.status == 204, "\(deleted)")
        #expect(!FileManager.default.fileExists(atPath: "\(media)/menu – café.jpg"))
        #expect(!Self.names(in: "\(media)/.thumbnails").contains { $0.hasPrefix("menu") })
        let saved = try String(contentsOfFile: "\(server.folder)/saved.json", encoding: .utf8)
        #expect(!saved.contains("caf") && saved.contains("turned.mp4"), "\(saved)")
        #expect(try server.request("/media/menu%20%E2%80%93%20caf%C3%A9.jpg", method: "DELETE").status == 404)
        #expect(try server.request("/media/jingle.mp3", method: "GET").status == 405)
    }

    /// Each bad upload is refused with its code, and the folder holds
    /// exactly what it held before: no file under the name, no hidden part.
    @Test func refusedUploadsLeaveNothingBehind() throws {
        let (server, media) = try Self.player(maxUploadMB: 1)
        defer { _ = server.stop() }
        let scratch = server.folder
        let big = "\(scratch)/big.mp4", junk = "\(scratch)/junk.mp4", picture = "\(SharedMedia.directory)/exif/Landscape_1.jpg"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try HTTPControlTests.clip(2))))
        bytes += [UInt8](repeating: 0, count: (1 << 20) + 4096 - bytes.count)
        try Data(bytes).write(to: URL(fileURLWithPath: big))
        var generator = SeededGenerator(seed: 37)
        try Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: junk))

        let over = try Self.upload(big, as: "big.mp4", to: server)
        #expect(over.status == 413 && over.body.contains("max_upload_mb"), "\(over)")
        // Without a length the limit is found as it passes: the connection is cut.
        let chunked = try Self.upload(big, as: "big2.mp4", to: server, chunked: true)
        #expect(chunked.status != 201 && chunked.status != 200, "\(chunked)")
        let notMedia = try Self.upload(junk, as: "junk.mp4", to: server)
        #expect(notMedia.status == 422 && notMedia.body.contains("junk.mp4: not media") && !notMedia.body.contains(".upload-"), "\(notMedia)")
        for name in ["..%2Fescape.jpg", "%2E%2E", ".hidden.jpg", "tab%09name.jpg", "a%0Ab.jpg", String(repeating: "n", count: 256) + ".jpg"] {
            let refused = try Self.upload(picture, as: name, to: server)
            #expect(refused.status == 400, "\(name): \(refused)")
        }
        let crossSite = try Self.upload(picture, as: "forged.jpg", to: server, headers: ["Origin: http://shop.example"])
        #expect(crossSite.status == 403, "\(crossSite)")
        let sameSite = try Self.upload(picture, as: "forged.jpg", to: server, headers: ["Sec-Fetch-Site: cross-site"])
        #expect(sameSite.status == 403, "\(sameSite)")
        #expect(Self.names(in: media).isEmpty, "left behind: \(Self.names(in: media))")
        #expect(!FileManager.default.fileExists(atPath: "\(scratch)/escape.jpg"))

        // A client that gives up half way: its part is removed when MHD lets the request go.
        let partial = "\(scratch)/partial.mp4"
        try Data(bytes.prefix(900_000)).write(to: URL(fileURLWithPath: partial))
        let abandoned = try Command.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "1", "--limit-rate", "100K",
                                                 "-T", partial, "\(server.url)/media/abandoned.mp4"], timeout: 20)
        #expect(!["200", "201"].contains(abandoned.stdout), "the upload was cut, yet stored: \(abandoned)")
        var leftover = Self.names(in: media)
        let deadline = Date().addingTimeInterval(15)
        while !leftover.isEmpty, Date() < deadline {
            usleep(100_000)
            leftover = Self.names(in: media)
        }
        #expect(leftover.isEmpty, "an abandoned upload left \(leftover)")
        let ownPage = try Self.upload(picture, as: "ok.jpg", to: server, headers: ["Origin: \(server.url)"])
        #expect(ownPage.status == 201, "the player's own page may upload: \(ownPage)")
        #expect(Self.names(in: media) == ["ok.jpg"])
        #expect(try server.request("/command", method: "POST", body: "pause", extra: ["-H", "Origin: http://shop.example"]).status == 403)
        #expect(try server.json("/status")["state"] as? String == "playing")
    }

    /// A disk that fills during an upload (a 3 MiB tmpfs): 507, nothing
    /// kept; one that cannot hold the stated length is refused before the
    /// body is read; the player plays on.
    @Test func aFullDiskIs507WithNothingLeft() throws {
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        let mounted = try Command.run("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", media])
        try #require(mounted.status == 0, "a tmpfs is needed (root): \(mounted.stderr)")
        defer { _ = try? Command.run("umount", [media]) }
        let (server, _) = try Self.player(media: media)
        defer { _ = server.stop() }
        let large = "\(server.folder)/large.mp4"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try HTTPControlTests.clip(2))))
        bytes += [UInt8](repeating: 0, count: (5 << 20) - bytes.count)
        try Data(bytes).write(to: URL(fileURLWithPath: large))

        let filled = try Self.upload(large, as: "large.mp4", to: server, chunked: true)
        #expect(filled.status == 507 && filled.body.contains("disk is full"), "\(filled)")
        #expect(Self.names(in: media).isEmpty, "left behind: \(Self.names(in: media))")
        let stated = try Self.upload(large, as: "large.mp4", to: server)
        #expect(stated.status == 507, "\(stated)")
        #expect(Self.names(in: media).isEmpty)
        let small = try Self.upload("\(SharedMedia.directory)/exif/Landscape_1.jpg", as: "fits.jpg", to: server)
        #expect(small.status == 201, "after a full disk the next upload works: \(small)")
        #expect(try server.json("/status")["state"] as? String == "playing")
    }

    /// kill -9 while a body arrives: no file under the name; the hidden
    /// part is removed when the next player opens the folder.
    @Test func killDuringAnUploadLeavesNoFileUnderTheName() throws {
        let (first, media) = try Self.player()
        let large = "\(first.folder)/large.mp4"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try HTTPControlTests.clip(2))))
        bytes += [UInt8](repeating: 0, count: (4 << 20) - bytes.count)
        try Data(bytes).write(to: URL(fileURLWithPath: large))
        let upload = try BackgroundCommand("curl", ["-s", "--max-time", "60", "--limit-rate", "256K", "-T", large, "\(first.url)/media/large.mp4"])
        var partial: [String] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            partial = Self.names(in: media).filter { $0.hasPrefix(".upload-") }
            if let name = partial.first, (try? FileManager.default.attributesOfItem(atPath: "\(media)/\(name)")[.size] as? Int) ?? 0 > 100_000 { break }
            usleep(100_000)
        }
        #expect(!partial.isEmpty, "the upload never began: \(Self.names(in: media))")
        kill(first.player.pid, SIGKILL)
        _ = upload.wait()
        _ = first.stop()
        #expect(!FileManager.default.fileExists(atPath: "\(media)/large.mp4"), "a half file under the final name")

        let second = try HTTPPlayer(inputs: [try HTTPControlTests.clip(2)], http: "playlist_file = \"saved.json\"",
                                    playback: "media_roots = [\"\(media)\"]", folder: first.folder)
        defer { _ = second.stop() }
        #expect(try second.request("/media").body == "[]")
        #expect(Self.names(in: media).isEmpty, "the part a crash left stays: \(Self.names(in: media))")
    }

    /// `marquee ctl --http`: over HTTPS with the token and the server's own
    /// certificate, upload (the name given, and the file's own), media (a
    /// JSON line a file) and a command; a wrong token, an untrusted
    /// certificate and a refused upload each fail with the reason.
    @Test func ctlReachesTheUploadFolderOverHTTPS() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ctl-\(UUID().uuidString)").path
        let media = "\(folder)/media"
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        let made = try Command.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                                               "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", "\(folder)/k.pem", "-out", "\(folder)/c.pem"])
        try #require(made.status == 0)
        try "s3cret-token\n".write(toFile: "\(folder)/token", atomically: true, encoding: .utf8)
        try "wrong\n".write(toFile: "\(folder)/wrong", atomically: true, encoding: .utf8)
        let server = try HTTPPlayer(inputs: [try HTTPControlTests.clip(2)],
                                    http: "token_file = \"\(folder)/token\"\ncert_file = \"\(folder)/c.pem\"\nkey_file = \"\(folder)/k.pem\"",
                                    playback: "media_roots = [\"\(media)\"]\nloop = \"playlist\"", host: "0.0.0.0", tls: true, folder: folder)
        defer { _ = server.stop() }
        let url = "https://127.0.0.1:\(server.port)"
        func ctl(_ words: [String], token: String = "token", trust: Bool = true) throws -> CommandResult {
            try MarqueeExecutable.run(["ctl", "--http", url, "--token-file", "\(folder)/\(token)"] + (trust ? ["--cacert", "\(folder)/c.pem"] : [])
                                      + words, timeout: 30)
        }
        let picture = "\(SharedMedia.directory)/exif/Portrait_6.jpg"
        let named = try ctl(["upload", picture, "lobby portrait.jpg"])
        #expect(named.status == 0 && named.stdout.contains("\"name\":\"lobby portrait.jpg\""), "\(named)")
        let ownName = try ctl(["upload", "\(SharedMedia.directory)/androidx/sample_audio_only.mp4"])
        #expect(ownName.status == 0 && ownName.stdout.contains("\"kind\":\"audio\""), "\(ownName)")
        let listed = try ctl(["media"])
        let lines = listed.stdout.split(separator: "\n")
        #expect(listed.status == 0 && lines.count == 2, "\(listed)")
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] }, "\(listed.stdout)")
        let paused = try ctl(["pause"])
        #expect(paused.status == 0 && paused.stdout == "ok\n", "\(paused)")
        #expect(try ctl(["get", "state"]).stdout == "paused\n")

        let wrong = try ctl(["media"], token: "wrong")
        #expect(wrong.status == 1 && wrong.stderr.contains("ctl media: 401"), "\(wrong)")
        let untrusted = try ctl(["media"], trust: false)
        #expect(untrusted.status == 1 && untrusted.stderr.contains("gnutls_handshake"), "\(untrusted)")
        let notMedia = try ctl(["upload", "\(folder)/token", "token.mp4"])
        #expect(notMedia.status == 1 && notMedia.stderr.contains("422 token.mp4: not media"), "\(notMedia)")
        #expect(Self.names(in: media) == ["lobby portrait.jpg", "sample_audio_only.mp4"])
    }
}
