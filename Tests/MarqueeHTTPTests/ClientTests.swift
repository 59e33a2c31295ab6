import Foundation
import MarqueeHTTP
import MarqueeTestSupport
import Testing

extension HTTPServerSuite {
    /// `HTTPClient` (what `marquee ctl --http` sends with) against the real
    /// server: URLs it reads and refuses, path segments, bodies from memory
    /// and from a file arriving whole, a refusal before the body, and the
    /// cross-origin check on the server's side.
    @Suite struct ClientTests {
        @Test func serverURLsAreReadOrRefusedWithTheFormExpected() throws {
            let plain = try ServerURL("http://127.0.0.1:8080")
            #expect(!plain.isTLS && plain.host == "127.0.0.1" && plain.port == 8080)
            let tls = try ServerURL("https://signage-7/")
            #expect(tls.isTLS && tls.host == "signage-7" && tls.port == 443)
            let six = try ServerURL("http://[::1]:9000")
            #expect(six.host == "::1" && six.port == 9000)
            for bad in ["ftp://x", "127.0.0.1:8080", "http://", "http://h:0", "http://h:70000", "http://h/status", "http://u@h", "http://[::1"] {
                #expect(throws: HTTPClientError.self, "\(bad)") { _ = try ServerURL(bad) }
            }
            do {
                _ = try ServerURL("http://h/status")
            } catch {
                #expect(error.description.contains("expected http://HOST:PORT"), "\(error)")
            }
        }

        @Test func pathSegmentsKeepTheirSlashesAndLettersOutOfTheURL() {
            #expect(PathSegment.encoded("menu café.jpg") == "menu%20caf%C3%A9.jpg")
            #expect(PathSegment.encoded("../a/b?c#d") == "..%2Fa%2Fb%3Fc%23d")
            #expect(PathSegment.encoded("A-z_0.9~") == "A-z_0.9~")
        }

        @Test func bodiesArriveWholeFromMemoryAndFromAFile() throws {
            let (server, routes) = try StatusTests.start()
            let client = HTTPClient(server: try ServerURL("http://127.0.0.1:\(server.port)"))
            let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let sum = bytes.reduce(UInt32(0)) { $0 &* 31 &+ UInt32($1) }
            let fromMemory = try client.send("PUT", "/playlist", body: .bytes(bytes))
            #expect(fromMemory.status == 200 && fromMemory.text == "300000 \(sum)", "\(fromMemory.text)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString)").path
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            let fromFile = try client.send("PUT", "/playlist", body: .file(file))
            #expect(fromFile.status == 200 && fromFile.text == "300000 \(sum)", "\(fromFile.text)")
            let status = try client.send("GET", "/status")
            #expect(status.status == 200 && status.headers["content-type"] == "application/json" && status.text == #"{"state":"playing"}"#)
            #expect(routes.received.withLock { $0.map(\.headers) }.allSatisfy { $0["user-agent"] == "marquee-ctl" })
        }

        @Test func aBodyTooBigIsRefusedBeforeItIsSent() throws {
            let (server, routes) = try StatusTests.start(limits: HTTPLimits(maximumBodyBytes: 1000))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString)").path
            try Data(count: 50_000_000).write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            let refused = try HTTPClient(server: try ServerURL("http://127.0.0.1:\(server.port)")).send("PUT", "/playlist", body: .file(file))
            #expect(refused.status == 413, "\(refused.status) \(refused.text)")
            #expect(routes.received.withLock { $0.isEmpty })
        }

        @Test func nothingListeningIsAnErrorNamingConnect() throws {
            let port = try Loopback.freePort()
            do {
                _ = try HTTPClient(server: try ServerURL("http://127.0.0.1:\(port)")).send("GET", "/status")
                Issue.record("a request to a closed port was answered")
            } catch {
                #expect(error.call == "connect" && error.description.hasPrefix("http://127.0.0.1:\(port): connect: "), "\(error)")
            }
        }

        @Test func aPageOfAnotherOriginCannotChangeThings() async throws {
            let (server, routes) = try StatusTests.start()
            let url = StatusTests.url(server, "/command")
            let forged = try await Blocking.run { try Curl.run(url, ["-X", "POST", "-H", "Origin: http://shop.example", "--data-binary", "pause"]) }
            #expect(forged.status == 403 && forged.body.contains("origin http://shop.example"), "\(forged.body)")
            let sameSite = try await Blocking.run { try Curl.run(url, ["-X", "POST", "-H", "Sec-Fetch-Site: same-site", "--data-binary", "pause"]) }
            #expect(sameSite.status == 403)
            let readOnly = try await Blocking.run { try Curl.run(StatusTests.url(server, "/status"), ["-H", "Origin: http://shop.example"]) }
            #expect(readOnly.status == 200, "a GET from any page is answered (the browser keeps it from the page)")
            let own = try await Blocking.run { try Curl.run(url, ["-X", "POST", "-H", "Origin: http://127.0.0.1:\(server.port)", "--data-binary", "pause"]) }
            #expect(own.status == 200)
            let noOrigin = try await Blocking.run { try Curl.run(url, ["-X", "POST", "--data-binary", "pause"]) }
            #expect(noOrigin.status == 200)
            #expect(routes.received.withLock { $0.filter { $0.path == "/command" }.count } == 2)
        }
    }
}
