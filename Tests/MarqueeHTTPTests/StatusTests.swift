import Foundation
import MarqueeHTTP
import MarqueeTestSupport
import Testing

extension HTTPServerSuite {
    /// Each status a request can end in, through the real curl against a
    /// real server on 127.0.0.1.
    @Suite struct StatusTests {
        static func start(token: String? = nil, limits: HTTPLimits = HTTPLimits()) throws -> (HTTPServer, Routes) {
            let routes = Routes()
            let server = try HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, token: token, limits: limits),
                                        handler: routes)
            return (server, routes)
        }

        static func url(_ server: HTTPServer, _ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }

        @Test func aRouteAnswers200WithTheFieldsEveryResponseGets() async throws {
            let (server, _) = try Self.start()
            let result = try await Blocking.run { try Curl.run(Self.url(server, "/status")) }
            #expect(result.status == 200)
            #expect(result.body == #"{"state":"playing"}"#)
            #expect(result.headers["content-type"] == "application/json")
            #expect(result.headers["cache-control"] == "no-store")
            #expect(result.headers["x-content-type-options"] == "nosniff")
        }

        @Test func anUnknownPathIsTheHandlers404() async throws {
            let (server, _) = try Self.start()
            let result = try await Blocking.run { try Curl.run(Self.url(server, "/nope"), ["-X", "DELETE"]) }
            #expect(result.status == 404)
            #expect(result.body == "404 no such route: DELETE /nope\n")
            #expect(result.headers["content-type"] == "text/plain; charset=utf-8")
            #expect(result.headers["cache-control"] == "no-store")
        }

        @Test func theRequestCarriesItsQueryFieldsAndPeer() async throws {
            let (server, routes) = try Self.start()
            let result = try await Blocking.run {
                try Curl.run(Self.url(server, "/echo?b=2&a=x+y%21&flag"), ["-H", "X-Marquee: one", "-H", "x-marquee: two"])
            }
            let peer = try #require(routes.received.withLock { $0.first?.peer })
            #expect(peer.hasPrefix("127.0.0.1:") && peer != "127.0.0.1:\(server.port)")
            #expect(result.body == "\(peer) a=x y!&b=2&flag= one, two\n")
        }

        @Test func aBodyUpToTheLimitReachesTheHandlerWhole() async throws {
            let limit = 256 << 10
            let (server, _) = try Self.start(limits: HTTPLimits(maximumBodyBytes: limit))
            var generator = SeededGenerator(seed: 21)
            let body = (0..<limit).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let file = try Self.write(body)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let result = try await Blocking.run { try Curl.run(Self.url(server, "/playlist"), ["-X", "PUT", "--data-binary", "@\(file)"]) }
            let sum = body.reduce(UInt32(0)) { $0 &* 31 &+ UInt32($1) }
            #expect(result.status == 200)
            #expect(result.body == "\(limit) \(sum)\n")
        }

        @Test func aBodyPastTheLimitIs413AndNeverReachesTheHandler() async throws {
            let limit = 64 << 10
            let (server, routes) = try Self.start(limits: HTTPLimits(maximumBodyBytes: limit))
            let file = try Self.write([UInt8](repeating: 7, count: limit + 1))
            defer { try? FileManager.default.removeItem(atPath: file) }
            let result = try await Blocking.run { try Curl.run(Self.url(server, "/command"), ["--data-binary", "@\(file)"]) }
            #expect(result.status == 413)
            #expect(result.body == "413 the body is \(limit + 1) bytes; at most \(limit) are accepted\n")
            #expect(routes.received.withLock { $0.isEmpty })
        }

        @Test func aChunkedBodyPastTheLimitIsCutAndNeverReachesTheHandler() async throws {
            let (server, routes) = try Self.start(limits: HTTPLimits(maximumBodyBytes: 1000))
            let ending = try await Blocking.run { () throws -> RawConnection.Read in
                let connection = try #require(RawConnection(port: server.port, timeout: 5))
                connection.send("POST /command HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<3 { connection.send("258\r\n" + String(repeating: "a", count: 600) + "\r\n") }
                return connection.readAll().ending
            }
            #expect(ending != .failed(EAGAIN))
            #expect(routes.received.withLock { $0.isEmpty })
        }

        @Test func withATokenARequestWithoutOneIs401() async throws {
            let (server, routes) = try Self.start(token: "s3cret")
            let result = try await Blocking.run { try Curl.run(Self.url(server, "/status")) }
            #expect(result.status == 401)
            #expect(result.headers["www-authenticate"] == "Bearer")
            #expect(result.body.hasSuffix("\n") && result.body.filter { $0 == "\n" }.count == 1)
            #expect(routes.received.withLock { $0.isEmpty })
        }

        @Test func withATokenAWrongOneIs401() async throws {
            let (server, routes) = try Self.start(token: "s3cret")
            for offered in ["s3cre", "s3creT", "s3cret2", ""] {
                let result = try await Blocking.run { try Curl.run(Self.url(server, "/status"), ["-H", "Authorization: Bearer \(offered)"]) }
                #expect(result.status == 401, "token '\(offered)'")
            }
            let basic = try await Blocking.run { try Curl.run(Self.url(server, "/status"), ["-u", "user:s3cret"]) }
            #expect(basic.status == 401)
            #expect(routes.received.withLock { $0.isEmpty })
        }

        @Test func withATokenTheRightOneIs200() async throws {
            let (server, _) = try Self.start(token: "s3cret")
            let result = try await Blocking.run { try Curl.run(Self.url(server, "/status"), ["-H", "Authorization: bearer s3cret"]) }
            #expect(result.status == 200)
            #expect(result.body == #"{"state":"playing"}"#)
        }

        @Test func aFieldMHDRefusesIsA500NamingIt() async throws {
            let (server, _) = try Self.start()
            let result = try await Blocking.run { try Curl.run(Self.url(server, "/refused-field")) }
            #expect(result.status == 500)
            #expect(result.body == "500 the response field 'X-Broken' was refused\n")
        }

        static func write(_ bytes: [UInt8]) throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-body-\(UUID().uuidString)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }
}
