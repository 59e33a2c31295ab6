import Foundation
import MarqueeCore
import MarqueeFleet
import MarqueeTestSupport
import Synchronization
import Testing

/// `MQTTClient` against a real Mosquitto on a loopback port: messages both
/// ways, a broker that is not there at the start, refusals with their reasons.
@Suite(.serialized) struct MQTTClientTests {
    /// What a client's handler saw, in order.
    final class Seen: Sendable {
        let events = Mutex<[String]>([])
        let messages = Mutex<[MQTTMessage]>([])

        func handle(_ event: MQTTClient.Event) {
            switch event {
            case .connected: events.withLock { $0.append("connected") }
            case .connectFailed(let error, _): events.withLock { $0.append("failed: \(error)") }
            case .disconnected(let error): events.withLock { $0.append("disconnected: \(error)") }
            case .message(let message): messages.withLock { $0.append(message) }
            case .published, .subscribed: break
            }
        }

        var connectedCount: Int { events.withLock { $0.filter { $0 == "connected" }.count } }
    }

    static func client(_ broker: Mosquitto, id: String, seen: Seen, configure: (inout MQTTClient.Settings) -> Void = { _ in }) throws -> MQTTClient {
        var settings = MQTTClient.Settings(broker: try #require(BrokerAddress(broker.url)), clientID: id)
        settings.retry = RetrySchedule(initial: 0.2, cap: 1, jitter: 0)
        configure(&settings)
        return try MQTTClient(settings: settings) { [seen] event in seen.handle(event) }
    }

    static func waitUntil(_ seconds: Double = 20, _ condition: () -> Bool) async throws {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            try #require(Date() < deadline, "timed out")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aMessageGoesFromOneClientToAnother() async throws {
        let broker = try Mosquitto()
        try broker.start()
        let (seenA, seenB) = (Seen(), Seen())
        let a = try Self.client(broker, id: "a", seen: seenA), b = try Self.client(broker, id: "b", seen: seenB)
        a.start()
        b.start()
        try await Self.waitUntil { a.isConnected && b.isConnected }
        try b.subscribe("test/#")
        try await Task.sleep(for: .milliseconds(200))
        try a.publish(MQTTMessage(topic: "test/one", text: "hello", qos: 1))
        try await Self.waitUntil { !seenB.messages.withLock { $0.isEmpty } }
        #expect(seenB.messages.withLock { $0 } == [MQTTMessage(topic: "test/one", text: "hello", qos: 1)])
    }

    @Test func aBrokerThatComesLaterIsJoinedAndOneThatDiesIsRejoined() async throws {
        let broker = try Mosquitto()
        let seen = Seen()
        let client = try Self.client(broker, id: "late", seen: seen)
        client.start()
        try await Self.waitUntil { seen.events.withLock { $0.count } >= 2 }
        #expect(!client.isConnected)
        #expect(throws: MQTTError.self) { try client.publish(MQTTMessage(topic: "t", text: "nobody")) }
        #expect(seen.events.withLock { $0[0] }.contains("Connection refused"), "\(seen.events.withLock { $0 })")
        try broker.start()
        try await Self.waitUntil { client.isConnected }
        broker.kill()
        try await Self.waitUntil { seen.events.withLock { $0.contains { $0.hasPrefix("disconnected") } } }
        try broker.start()
        try await Self.waitUntil { seen.connectedCount == 2 }
    }

    @Test func tlsWithoutACertificateOrWithAWrongPasswordIsRefused() async throws {
        let tls = try Mosquitto.TLS(users: [("screen-1", "right")])
        let broker = try Mosquitto(tls: tls)
        try broker.start()
        let (good, noCertificate, wrongPassword) = (Seen(), Seen(), Seen())
        let clients = try [
            Self.client(broker, id: "good", seen: good) {
                $0.caFile = tls.caFile; $0.certFile = tls.clientCertificate; $0.keyFile = tls.clientKey
                $0.username = "screen-1"; $0.password = "right"
            },
            Self.client(broker, id: "no-cert", seen: noCertificate) {
                $0.caFile = tls.caFile; $0.username = "screen-1"; $0.password = "right"
            },
            Self.client(broker, id: "wrong", seen: wrongPassword) {
                $0.caFile = tls.caFile; $0.certFile = tls.clientCertificate; $0.keyFile = tls.clientKey
                $0.username = "screen-1"; $0.password = "wrong"
            },
        ]
        clients.forEach { $0.start() }
        try await Self.waitUntil { clients[0].isConnected }
        try await Self.waitUntil { !noCertificate.events.withLock { $0.isEmpty } && !wrongPassword.events.withLock { $0.isEmpty } }
        #expect(!clients[1].isConnected && !clients[2].isConnected)
        #expect(noCertificate.connectedCount == 0 && wrongPassword.connectedCount == 0)
        let refusal = wrongPassword.events.withLock { $0[0] }
        #expect(refusal.contains("CONNACK") && refusal.lowercased().contains("not authorised"), "\(refusal)")
        let noCertificateFailure = noCertificate.events.withLock { $0[0] }
        #expect(noCertificateFailure.hasPrefix("failed: \(broker.url)"), "\(noCertificateFailure)")
    }
}
