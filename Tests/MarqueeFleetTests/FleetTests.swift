import Foundation
import MarqueeFleet
import MarqueeTestSupport
import Testing

/// Issue 40's fleet at scale, against a real Mosquitto on a loopback port:
/// 50 `marquee play` processes (a still picture each, null display, no
/// sound) in one group. A group command reaches all and all reply; their
/// retained statuses are there for a fresh subscriber and `marquee fleet
/// list`; the broker is killed for 20 s and started again: every player
/// plays on, all come back and answer, and every play-log line written
/// meanwhile reaches a collector, each under one sequence number.
/// In the network group that CI runs alone.
@Suite(.serialized) struct FleetTests {
    static let count = 50

    /// The screens that replied to the request `id`.
    static func answered(_ listener: Listener, id: String) -> Set<String> {
        Set(listener.objects(endingWith: "/reply").filter { $0.object["id"] as? String == id }.compactMap { FleetTopics.screen(in: $0.topic) })
    }

    /// The latest retained status of each screen.
    static func statuses(_ listener: Listener) -> [String: [String: Any]] {
        var latest: [String: [String: Any]] = [:]
        for (topic, object) in listener.objects(endingWith: "/status") { latest[FleetTopics.screen(in: topic)!] = object }
        return latest
    }

    @Test func fiftyScreensAnswerAGroupAndComeBackAfterTheBrokerIsKilledFor20Seconds() async throws {
        let broker = try Mosquitto(persistent: true)
        try broker.start()
        // A collector with a session of its own: the broker keeps play-log lines for it across a restart.
        let collector = try Listener(broker, id: "plays-collector", persistent: true)
        try await collector.subscribe("marquee/+/plays")
        let screens = try (1...Self.count).map {
            try Screen(id: String(format: "screen-%02d", $0), fleet: "broker = \"\(broker.url)\"\ngroups = [\"lobby\"]", imageSeconds: 1)
        }
        let ids = Set(screens.map(\.id))
        for screen in screens { try screen.start() }

        // 1. Every retained status, read by a subscriber that comes after them; and `marquee fleet list`.
        let watcher = try Listener(broker)
        try await watcher.subscribe("marquee/+/status")
        try await Wait.until("\(Self.count) statuses online") {
            Set(Self.statuses(watcher).filter { $0.value["online"] as? Bool == true }.keys) == ids
        }
        let fresh = try Listener(broker)
        try await fresh.subscribe("marquee/+/status")
        try await Wait.until("retained statuses for a fresh subscriber") { Set(Self.statuses(fresh).keys) == ids }
        let listed = try MarqueeExecutable.run(["fleet", "--broker", broker.url, "list", "--json"])
        try #require(listed.status == 0, "\(listed.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(Set(array.compactMap { $0["id"] as? String }) == ids)
        let table = try MarqueeExecutable.run(["fleet", "--broker", broker.url, "list"])
        #expect(table.stdout.split(separator: "\n").count == Self.count + 1, "\(table.stdout)")

        // A group command: every screen replies, with the request's id.
        let replies = try Listener(broker)
        try await replies.subscribe("marquee/+/reply")
        let sent = Date()
        try replies.client.publish(MQTTMessage(topic: FleetTopics.groupCommand("lobby"), text: #"{"command":"status","id":"before"}"#, qos: 1))
        try await Wait.until("\(Self.count) replies") { Self.answered(replies, id: "before") == ids }
        print("fleet: a group command to \(Self.count) screens: the last reply \(String(format: "%.3f", Date().timeIntervalSince(sent))) s after the publish")

        // 2. The broker killed for 20 s.
        let uptimes = Self.statuses(fresh).mapValues { $0["uptime"] as? Double ?? 0 }
        broker.kill()
        try await Task.sleep(for: .seconds(20))
        let stopped = screens.filter { !$0.isRunning }.map(\.id)
        #expect(stopped.isEmpty, "stopped while the broker was away: \(stopped)")
        try broker.start()
        let restarted = Date()
        let back = try Listener(broker)
        try await back.subscribe("marquee/+/reply", "marquee/+/status")
        // Asked again every half second until every screen has answered one of them.
        var round = 0
        var recovered: Set<String> = []
        while recovered != ids {
            try #require(Date().timeIntervalSince(restarted) < 90, "answering after the outage: \(ids.subtracting(recovered).sorted())")
            round += 1
            try back.client.publish(MQTTMessage(topic: FleetTopics.groupCommand("lobby"), text: #"{"command":"status","id":"after-\#(round)"}"#, qos: 1))
            try await Task.sleep(for: .milliseconds(500))
            recovered = Set(back.objects(endingWith: "/reply").filter { ($0.object["id"] as? String)?.hasPrefix("after-") == true }
                .compactMap { FleetTopics.screen(in: $0.topic) })
        }
        print("fleet: after 20 s without the broker, all \(Self.count) answering \(String(format: "%.1f", Date().timeIntervalSince(restarted))) s after it was back")
        // Online again with a status published since (uptime past the outage), and nothing dropped.
        try await Wait.until("fresh statuses online", seconds: 30) {
            let latest = Self.statuses(back)
            return ids.allSatisfy { id in
                latest[id]?["online"] as? Bool == true && (latest[id]?["uptime"] as? Double ?? 0) > (uptimes[id] ?? 0) + 20
            }
        }
        let dropped = Self.statuses(back).filter { ($0.value["framesDropped"] as? Int ?? -1) != 0 }.keys.sorted()
        #expect(dropped.isEmpty, "frames dropped on \(dropped)")

        // Every play-log line written so far, outage included, once per sequence number.
        let written = try screens.map { screen in
            try String(contentsOfFile: screen.playsPath, encoding: .utf8).split(separator: "\n").count
        }
        #expect(written.allSatisfy { $0 >= 20 }, "lines written: \(written)")
        func received() -> [String: [Int: String]] {
            var bySequence: [String: [Int: String]] = [:]
            for (_, object) in collector.objects(endingWith: "/plays") {
                guard let screen = object["screen"] as? String, let sequence = object["seq"] as? Int else { continue }
                let line = "\(object["start"] ?? "")|\(object["end"] ?? "")"
                if let earlier = bySequence[screen]?[sequence] { #expect(earlier == line, "\(screen) #\(sequence) sent twice with different lines") }
                bySequence[screen, default: [:]][sequence] = line
            }
            return bySequence
        }
        try await Wait.until("every play-log line at the collector", seconds: 60) {
            let got = received()
            return zip(screens, written).allSatisfy { screen, count in (1...count).allSatisfy { got[screen.id]?[$0] != nil } }
        }
        for screen in screens { screen.stop() }
    }
}
