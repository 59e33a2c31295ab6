import Foundation
import MarqueeHTTP
import MarqueeTestSupport
import Testing

extension HTTPServerSuite {
    /// What starting can refuse, and what stopping leaves.
    @Suite struct StartStopTests {
        @Test func aPortInUseIsAnErrorNamingTheCallAndTheBind() throws {
            let first = try HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), handler: Routes())
            let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: first.port)
            let error = try #require(throws: HTTPServerError.self) { try HTTPServer(configuration: configuration, handler: Routes()) }
            #expect(error.call == "MHD_start_daemon")
            #expect(error.subject == "127.0.0.1:\(first.port)")
            #expect(error.reason.contains("bind") && error.reason.contains("Address already in use"), "\(error)")
        }

        @Test func aHostThatIsNotANumericAddressIsRefused() {
            let configuration = HTTPServerConfiguration(host: "localhost", port: 0)
            #expect(throws: HTTPServerError(value: "host 'localhost'", reason: "not a numeric IPv4 or IPv6 address")) {
                try HTTPServer(configuration: configuration, handler: Routes())
            }
        }

        @Test func aLimitThatCannotWorkIsRefused() {
            let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, limits: HTTPLimits(connections: 0))
            #expect(throws: HTTPServerError(value: "limits", reason: "limits.connections must be 1 to 4294967295, not 0")) {
                try HTTPServer(configuration: configuration, handler: Routes())
            }
        }

        @Test func afterStopNothingAnswersAndTheThreadsAreGone() async throws {
            let port = try Loopback.freePort()
            // The threads of the servers before this one end a moment after their stop: the baseline is none.
            _ = try await EventStreamTests.poll(for: 3) { (try? ProcessCounts.now(port: port).serverThreads) == 0 }
            let before = try await EventStreamTests.settledCounts(port: port)
            let server = try HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: port), handler: Routes())
            let answered = try await Blocking.run { try Curl.run("http://127.0.0.1:\(server.port)/status") }
            #expect(answered.status == 200)
            // A thread names itself once it runs: under the full suite's load its name can come seconds after the answer.
            _ = try await EventStreamTests.poll(for: 10) { ((try? ProcessCounts.now(port: port).serverThreads) ?? 0) >= before.serverThreads + 2 }
            let running = try ProcessCounts.now(port: port)
            #expect(running.serverThreads >= before.serverThreads + 2 && running.descriptors >= 1, "\(before) then \(running)")
            server.stop()
            server.stop()
            #expect(RawConnection(port: server.port, timeout: 1) == nil)
            let after = try await EventStreamTests.settledCounts(to: before, port: port)
            #expect(after.leavesNothingBeyond(before), "\(before) then \(after)")
        }

        static let hasIPv6Loopback = (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8))?
            .contains("00000000000000000000000000000001") ?? false

        @Test(.enabled(if: hasIPv6Loopback, "no ::1 on this machine")) func theIPv6LoopbackAnswers() async throws {
            let server = try HTTPServer(configuration: HTTPServerConfiguration(listen: "[::1]:0"), handler: Routes())
            let result = try await Blocking.run { try Curl.run("http://[::1]:\(server.port)/echo", ["-g"]) }
            #expect(result.status == 200)
            #expect(result.body.hasPrefix("[::1]:"))
        }
    }
}
