import Foundation
import MarqueeCore
import MarqueeHTTP
import MarqueeTestSupport
import Testing

extension HTTPServerSuite {
    /// Server-sent events: a feed's events in order, keep-alive comments,
    /// and what a client leaving or the server stopping does to the feed
    /// and the connection's thread.
    @Suite struct EventStreamTests {
        static func start(_ feeds: [TestFeed], keepAlive: Int, idleTimeout: Int = 10) throws -> HTTPServer {
            try HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0,
                                                                  limits: HTTPLimits(idleTimeoutSeconds: idleTimeout, eventKeepAliveSeconds: keepAlive)),
                           handler: Routes(feeds: feeds))
        }

        static let request = "GET /events HTTP/1.1\r\nHost: marquee\r\nAccept: text/event-stream\r\n\r\n"

        @Test func aFeedsThreeEventsArriveInOrderThenTheStreamEnds() async throws {
            let feed = TestFeed(events: ["one", "two", "{\"a\": 1,\n \"b\": 2}"], endsAfterEvents: true)
            let server = try Self.start([feed], keepAlive: 1)
            let result = try await Blocking.run { try Curl.run("http://127.0.0.1:\(server.port)/events", ["-N"]) }
            #expect(result.exitStatus == 0)
            #expect(result.status == 200)
            #expect(result.headers["content-type"] == "text/event-stream")
            #expect(result.headers["cache-control"] == "no-store")
            #expect(result.body == "data: one\n\ndata: two\n\ndata: {\"a\": 1,\ndata:  \"b\": 2}\n\n")
            #expect(feed.closes == 1)
        }

        /// With keep-alives further apart than the idle timeout: waiting in the
        /// feed must not count as a silent connection.
        @Test func eachEventIsWrittenWhenTheFeedGivesItAndIdleTimeGetsKeepAlives() async throws {
            let feed = TestFeed(events: ["one", "two"], spacing: .milliseconds(400), endsAfterEvents: false)
            let server = try Self.start([feed], keepAlive: 2, idleTimeout: 1)
            let arrivals = try await Blocking.run { () throws -> [(String, Double)] in
                let connection = try #require(RawConnection(port: server.port, timeout: 5))
                let started = Date()
                connection.send(Self.request)
                var text = ""
                return [("data: one", 1), ("data: two", 1), (": keep-alive", 1), (": keep-alive", 2)].map { marker, occurrences in
                    let arrived = connection.read(into: &text, until: marker, occurrences: occurrences, deadline: started.addingTimeInterval(7))
                    return (marker, arrived ? Date().timeIntervalSince(started) : -1)
                }
            }
            let times = arrivals.map(\.1)
            #expect(times.allSatisfy { $0 >= 0 }, "\(arrivals)")
            #expect(times[0] >= 0.35 && times[0] < 1.0, "the first event 0.4 s in: \(arrivals)")
            #expect(times[1] - times[0] >= 0.35, "the second one 0.4 s later, not held back: \(arrivals)")
            #expect(times[2] - times[1] >= 1.9 && times[3] - times[2] >= 1.9, "a keep-alive after 2 s without events: \(arrivals)")
            server.stop()
            #expect(feed.closes == 1)
        }

        @Test func aClientLeavingMidStreamClosesTheFeedAndItsThreadGoes() async throws {
            let feed = TestFeed(events: ["one"], endsAfterEvents: false)
            let server = try Self.start([feed], keepAlive: 1)
            // One request first, so whatever MHD and this process set up once is in the baseline.
            _ = try await Blocking.run { try Curl.run("http://127.0.0.1:\(server.port)/status") }
            // The curl connection's socket may stay a moment after curl has gone: the baseline is the listener alone.
            _ = try await Self.poll(for: 3) { (try? ProcessCounts.now(port: server.port).descriptors) == 1 }
            let before = try await Self.settledCounts(port: server.port)
            let during = try await Blocking.run { () throws -> ProcessCounts in
                let connection = try #require(RawConnection(port: server.port, timeout: 5))
                connection.send(Self.request)
                #expect(connection.read(until: "data: one").contains("data: one"))
                return try ProcessCounts.now(port: server.port)
            }
            // The client's socket is closed now; the server finds out at a keep-alive write.
            #expect(during.serverThreads == before.serverThreads + 1 && during.descriptors > before.descriptors,
                    "\(before) then \(during)")
            let closed = try await Self.poll(for: 5) { feed.closes == 1 }
            #expect(closed, "the feed was not closed within 5 s of the client leaving")
            let after = try await Self.settledCounts(to: before, port: server.port)
            #expect(after.leavesNothingBeyond(before), "\(before) then \(after)")
        }

        @Test func stopEndsAnOpenStreamPromptly() async throws {
            let feed = TestFeed(events: ["one"], endsAfterEvents: false)
            let server = try Self.start([feed], keepAlive: 15)
            let connection = try #require(RawConnection(port: server.port, timeout: 5))
            let first = try await Blocking.run {
                connection.send(Self.request)
                return connection.read(until: "data: one")
            }
            #expect(first.contains("data: one"))
            let stopped = try await Blocking.run { () -> Double in
                let started = Date()
                server.stop()
                server.stop()
                return Date().timeIntervalSince(started)
            }
            // The feed waits up to 15 s for an event; stop must not wait for it.
            #expect(stopped < 2, "stop took \(stopped) s")
            #expect(feed.closes == 1)
            let ending = try await Blocking.run { connection.readAll().ending }
            #expect(ending == .closed)
        }

        /// The counts once they have stayed the same for 0.3 s, or leave nothing
        /// beyond `target` (threads that finished take a moment to leave /proc), within 3 s.
        static func settledCounts(to target: ProcessCounts? = nil, port: UInt16) async throws -> ProcessCounts {
            var last = try ProcessCounts.now(port: port)
            let deadline = Date().addingTimeInterval(3)
            while Date() < deadline {
                try await Blocking.sleep(0.3)
                let now = try ProcessCounts.now(port: port)
                if let target, now.leavesNothingBeyond(target) { return now }
                if target == nil && now.leavesNothingBeyond(last) { return now }
                last = now
            }
            return last
        }

        static func poll(for seconds: Double, _ condition: () -> Bool) async throws -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition() {
                if Date() > deadline { return false }
                try await Blocking.sleep(0.05)
            }
            return true
        }
    }
}
