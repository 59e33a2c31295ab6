import Foundation
import MarqueeFleet
import MarqueeTestSupport
import Testing

/// Issue 40 on one or two screens against real brokers on loopback ports:
/// a command through a bridged broker, configuration pushes (refused with
/// line:column, applied and kept across a restart, a kill during the write),
/// a command delivered twice, screenshots, and TLS refusals said once.
@Suite(.serialized) struct FleetControlTests {
    static func reply(_ listener: Listener, id: String) -> [String: Any]? {
        listener.objects(endingWith: "/reply").first { $0.object["id"] as? String == id }?.object
    }

    static func waitOnline(_ broker: Mosquitto, _ ids: [String]) async throws {
        let watcher = try Listener(broker)
        try await watcher.subscribe("marquee/+/status")
        try await Wait.until("online: \(ids)") {
            ids.allSatisfy { id in watcher.objects(endingWith: "\(id)/status").last?.object["online"] as? Bool == true }
        }
    }

    @Test func aCommandOnTheCentralBrokerReachesAScreenOnABridgedSiteBroker() async throws {
        let central = try Mosquitto()
        try central.start()
        let site = try Mosquitto(bridgedTo: central.port)
        try site.start()
        let screen = try Screen(id: "site-screen", fleet: "broker = \"\(site.url)\"\ngroups = [\"site-a\"]")
        try screen.start()
        try await Self.waitOnline(central, [screen.id])
        // The operator's tool on the central broker, as across a WAN.
        let sent = try MarqueeExecutable.run(["fleet", "--broker", central.url, "send", "group/site-a", "get", "state"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout == "site-screen: playing\n", "\(sent.stdout)")
        #expect(sent.stderr.contains("1 answered, 0 did not"), "\(sent.stderr)")
        screen.stop()
    }

    @Test func aPushWithAnErrorChangesNothingAndAGoodOneIsAppliedAndKept() async throws {
        let broker = try Mosquitto()
        try broker.start()
        let screen = try Screen(id: "pushed", fleet: "broker = \"\(broker.url)\"")
        try screen.start()
        try await Self.waitOnline(broker, [screen.id])
        let original = try Data(contentsOf: URL(fileURLWithPath: screen.configPath))
        let folder = screen.folder

        // An error: its line and column in the reply, the file as it was.
        let bad = "\(folder)/bad.toml"
        try "[playback]\nplaylist = [\"media/still.png\"]\nloop = \"sometimes\"\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try MarqueeExecutable.run(["fleet", "--broker", broker.url, "push", screen.id, bad])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("pushed: error: config: 1 problem, nothing changed: pushed marquee.toml:3:8:"), "\(refused.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: screen.configPath)) == original)

        // Outside media_roots: refused by name.
        let outside = "\(folder)/outside.toml"
        try Screen.configuration(id: screen.id, fleet: "broker = \"\(broker.url)\"", imageSeconds: 5)
            .replacingOccurrences(of: "media/still.png", with: "/etc/passwd").write(toFile: outside, atomically: true, encoding: .utf8)
        let confined = try MarqueeExecutable.run(["fleet", "--broker", broker.url, "push", screen.id, outside])
        #expect(confined.stdout.contains("playback.playlist[0]: '/etc/passwd' is outside the media roots"), "\(confined.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: screen.configPath)) == original)

        // A good one: applied now (a reload), and what the player reads after a restart.
        let good = "\(folder)/good.toml"
        let document = Screen.configuration(id: screen.id, fleet: "broker = \"\(broker.url)\"", imageSeconds: 5, extra: "rate = 0.5")
        try document.write(toFile: good, atomically: true, encoding: .utf8)
        let applied = try MarqueeExecutable.run(["fleet", "--broker", broker.url, "push", screen.id, good])
        #expect(applied.status == 0, "\(applied.stdout) \(applied.stderr)")
        #expect(applied.stdout.contains("rate 0.5"), "\(applied.stdout)")
        #expect(try String(contentsOfFile: screen.configPath, encoding: .utf8) == document)
        screen.stop()
        try screen.start()
        try await Self.waitOnline(broker, [screen.id])
        let rate = try MarqueeExecutable.run(["fleet", "--broker", broker.url, "send", screen.id, "get", "rate"])
        #expect(rate.stdout == "pushed: 0.5\n", "\(rate.stdout) \(rate.stderr)")
        screen.stop()
    }

    @Test func aKillDuringThePushedFilesWriteLeavesTheOldFileWhole() async throws {
        let broker = try Mosquitto()
        try broker.start()
        let screen = try Screen(id: "killed", fleet: "broker = \"\(broker.url)\"")
        // Held 3 s between the temporary file's fsync and the rename.
        try screen.start(environment: ["MARQUEE_TEST_PLAYLIST_RENAME_DELAY": "3"])
        try await Self.waitOnline(broker, [screen.id])
        let original = try String(contentsOfFile: screen.configPath, encoding: .utf8)
        let pusher = try Listener(broker)
        try await pusher.waitConnected()
        let document = Screen.configuration(id: screen.id, fleet: "broker = \"\(broker.url)\"", imageSeconds: 5, extra: "rate = 2")
        try pusher.client.publish(MQTTMessage(topic: FleetTopics(id: screen.id).config, text: document, qos: 1))
        try await Wait.until("the temporary file written") {
            (try FileManager.default.contentsOfDirectory(atPath: screen.folder)).contains { $0.hasPrefix(".marquee.toml.") && $0.hasSuffix(".tmp") }
        }
        screen.kill()
        #expect(try String(contentsOfFile: screen.configPath, encoding: .utf8) == original)
    }

    @Test func aCommandDeliveredTwiceActsOnceAndAScreenshotComesBack() async throws {
        let broker = try Mosquitto()
        try broker.start()
        let screen = try Screen(id: "twice", fleet: "broker = \"\(broker.url)\"",
                                extra: "")
        // Three pictures, so `next` moves visibly.
        let configuration = try String(contentsOfFile: screen.configPath, encoding: .utf8)
            .replacingOccurrences(of: #"playlist = ["media/still.png"]"#, with: #"playlist = ["media/still.png", "media/still.png", "media/still.png"]"#)
        try configuration.write(toFile: screen.configPath, atomically: true, encoding: .utf8)
        try screen.start()
        try await Self.waitOnline(broker, [screen.id])
        let listener = try Listener(broker)
        try await listener.subscribe("marquee/twice/reply", "marquee/twice/screenshot")
        let topic = FleetTopics(id: screen.id).command
        // The same message twice, as a QoS 1 redelivery would bring it.
        for _ in 0..<2 { try listener.client.publish(MQTTMessage(topic: topic, text: #"{"command":"next","id":"n1"}"#, qos: 1)) }
        try listener.client.publish(MQTTMessage(topic: topic, text: #"{"command":"get","args":["item"],"id":"where"}"#, qos: 1))
        try await Wait.until("the item asked for") { Self.reply(listener, id: "where") != nil }
        #expect(listener.objects(endingWith: "/reply").filter { $0.object["id"] as? String == "n1" }.count == 1)
        #expect((Self.reply(listener, id: "where")?["result"] as? [String: Any])?["index"] as? Int == 2, "\(Self.reply(listener, id: "where") ?? [:])")

        // A bad command: the reply says why, with its id.
        try listener.client.publish(MQTTMessage(topic: topic, text: #"{"command":"jump","id":"bad"}"#, qos: 1))
        try await Wait.until("the refusal") { Self.reply(listener, id: "bad") != nil }
        #expect((Self.reply(listener, id: "bad")?["error"] as? String)?.contains("jump") == true)

        let output = "\(screen.folder)/shot.png"
        let shot = try MarqueeExecutable.run(["fleet", "--broker", broker.url, "screenshot", screen.id, "--width", "160", "-o", output])
        #expect(shot.status == 0, "\(shot.stderr)")
        let probe = try Command.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", output])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "160,90", "\(probe.stdout)")
        screen.stop()
    }

    @Test func tlsRefusalsAreSaidOnceAndThePlayerPlaysOn() async throws {
        let tls = try Mosquitto.TLS(users: [("screen", "right")])
        let broker = try Mosquitto(tls: tls)
        try broker.start()
        try "right\n".write(toFile: "\(tls.directory)/right", atomically: true, encoding: .utf8)
        try "wrong\n".write(toFile: "\(tls.directory)/wrong", atomically: true, encoding: .utf8)
        let credentials = "broker = \"\(broker.url)\"\nca_file = \"\(tls.caFile)\"\nusername = \"screen\"\n"
        let certificate = "cert_file = \"\(tls.clientCertificate)\"\nkey_file = \"\(tls.clientKey)\"\n"
        let good = try Screen(id: "tls-good", fleet: credentials + certificate + "password_file = \"\(tls.directory)/right\"")
        let noCertificate = try Screen(id: "tls-no-cert", fleet: credentials + "password_file = \"\(tls.directory)/right\"")
        let wrongPassword = try Screen(id: "tls-wrong", fleet: credentials + certificate + "password_file = \"\(tls.directory)/wrong\"")
        for screen in [good, noCertificate, wrongPassword] { try screen.start() }
        let listener = try Listener(broker) {
            $0.caFile = tls.caFile; $0.certFile = tls.clientCertificate; $0.keyFile = tls.clientKey
            $0.username = "screen"; $0.password = "right"
        }
        try await listener.subscribe("marquee/+/status")
        try await Wait.until("the good screen online") { listener.objects(endingWith: "tls-good/status").last?.object["online"] as? Bool == true }
        // Long enough for several attempts (1, 2, 4 s apart).
        try await Task.sleep(for: .seconds(8))
        for screen in [noCertificate, wrongPassword] {
            #expect(screen.isRunning)
            let lines = screen.stderr.split(separator: "\n").filter { $0.contains("fleet:") }
            #expect(lines.count == 1, "\(screen.id): \(lines)")
            #expect(listener.objects(endingWith: "\(screen.id)/status").isEmpty)
        }
        #expect(wrongPassword.stderr.contains("CONNACK: Connection Refused: not authorised"), "\(wrongPassword.stderr)")
        #expect(noCertificate.stderr.contains("marquee: fleet: \(broker.url): "), "\(noCertificate.stderr)")
        for screen in [good, noCertificate, wrongPassword] { screen.stop() }
    }
}
