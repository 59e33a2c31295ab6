import Foundation
import MarqueeHTTP
import MarqueeTestSupport
import Testing

extension HTTPServerSuite {
    /// What MHD does with requests that are not HTTP or are too big: a 4xx or
    /// a closed connection, within the limits, and never the handler.
    @Suite struct MalformedRequestTests {
        static let limits = HTTPLimits(idleTimeoutSeconds: 2)

        /// Sends `bytes` on a fresh connection and reads to its end: the first
        /// line of what came back (empty if nothing did), how it ended, how long it took.
        static func exchange(_ bytes: [UInt8], port: UInt16) async throws -> (statusLine: String, ending: RawConnection.Read, seconds: Double) {
            try await Blocking.run {
                let connection = try #require(RawConnection(port: port, timeout: 10))
                let started = Date()
                connection.send(bytes)
                let (received, ending) = connection.readAll()
                let statusLine = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
                return (statusLine, ending, Date().timeIntervalSince(started))
            }
        }

        static func start() throws -> (HTTPServer, Routes) {
            let routes = Routes()
            return (try HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, limits: limits), handler: routes), routes)
        }

        /// A 4xx status line, or no answer and a closed connection.
        static func refused(_ statusLine: String, _ ending: RawConnection.Read) -> Bool {
            let isClientError = statusLine.hasPrefix("HTTP/1.1 4") || statusLine.hasPrefix("HTTP/1.0 4")
            return isClientError || (statusLine.isEmpty && (ending == .closed || ending == .failed(ECONNRESET)))
        }

        @Test func aTwoMegabyteHeaderGets431OrIsClosed() async throws {
            let (server, routes) = try Self.start()
            let request = "GET /status HTTP/1.1\r\nHost: marquee\r\nX-Big: " + String(repeating: "b", count: 2 << 20) + "\r\n\r\n"
            let (statusLine, ending, seconds) = try await Self.exchange(Array(request.utf8), port: server.port)
            #expect(Self.refused(statusLine, ending), "'\(statusLine)', \(ending)")
            #expect(seconds < 3, "took \(seconds) s")
            #expect(routes.received.withLock { $0.isEmpty })
        }

        @Test func garbageGets400OrIsClosed() async throws {
            let (server, routes) = try Self.start()
            var generator = SeededGenerator(seed: 7)
            let cases: [[UInt8]] = [
                Array("\u{1}\u{2}\u{3} garbage\r\n\r\n".utf8),
                (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) },
                Array("GET\r\n\r\n".utf8),
                Array("GET /\r\n\r\n".utf8),
                Array("GET / HTXP/1.1\r\nHost: marquee\r\n\r\n".utf8),
                Array("GET /status HTTP/1.1\r\nHost: marquee\r\nno colon here\r\n\r\n".utf8),
                Array("POST /command HTTP/1.1\r\nHost: marquee\r\nContent-Length: ten\r\n\r\n".utf8),
                Array("POST /command HTTP/1.1\r\nHost: marquee\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8),
                Array(("GET /" + String(repeating: "a", count: 40 << 10) + " HTTP/1.1\r\nHost: marquee\r\n\r\n").utf8),
            ]
            for bytes in cases {
                let (statusLine, ending, seconds) = try await Self.exchange(bytes, port: server.port)
                let shown = String(decoding: bytes.prefix(40), as: UTF8.self).debugDescription
                #expect(Self.refused(statusLine, ending), "\(shown): '\(statusLine)', \(ending)")
                #expect(seconds < 3, "\(shown): took \(seconds) s")
            }
            #expect(routes.received.withLock { $0.isEmpty })
        }

        @Test func anUnsupportedVersionGets505() async throws {
            let (server, _) = try Self.start()
            let (statusLine, _, seconds) = try await Self.exchange(Array("GET / HTTP/9.9\r\nHost: marquee\r\n\r\n".utf8), port: server.port)
            #expect(statusLine == "HTTP/1.1 505 HTTP Version Not Supported")
            #expect(seconds < 3)
        }

        @Test func anUnfinishedRequestIsClosedByTheTimeout() async throws {
            let (server, routes) = try Self.start()
            let (statusLine, ending, seconds) = try await Self.exchange(Array("GET /status HTTP/1.1\r\nHost: marquee\r\n".utf8), port: server.port)
            #expect(statusLine.isEmpty && ending == .closed)
            #expect(seconds >= 1.5 && seconds < 4, "closed after \(seconds) s")
            #expect(routes.received.withLock { $0.isEmpty })
        }
    }
}
