import FoundationEssentials
import Glibc
import MarqueeApp
import MarqueeConfig
import MarqueeControl
import MarqueeCore
import MarqueeFleet

/// `marquee fleet [--broker URL] [--config FILE] list|send|push|screenshot`:
/// the operator's end of the fleet (docs/fleet.md), over the same broker
/// the screens use.
struct FleetCommand: Subcommand {
    static let name = "fleet"
    static let operands = "list | send TARGET COMMAND [ARGUMENT...] | push TARGET FILE | screenshot ID"
    static let options: [OptionSpec] = [
        OptionSpec("--broker", "URL", .control, "mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (else [fleet] broker of --config)"),
        OptionSpec("--config", "FILE", .control, "a configuration whose [fleet] section gives the broker and credentials"),
        OptionSpec("--username", "NAME", .control, "the broker account (else [fleet] username)"),
        OptionSpec("--password-file", "PATH", .control, "a file holding its password (else [fleet] password_file)"),
        OptionSpec("--cacert", "PATH", .control, "with mqtts: the CA that signed the broker's certificate (else [fleet] ca_file)"),
        OptionSpec("--cert", "PATH", .control, "with mqtts: this client's certificate (else [fleet] cert_file)"),
        OptionSpec("--key", "PATH", .control, "with mqtts: its key (else [fleet] key_file)"),
        OptionSpec("--timeout", "SECONDS", default: "5", .control, "how long to wait for replies, statuses or a screenshot"),
        OptionSpec("--json", .control, "list: the statuses as a JSON array, each with its id"),
        OptionSpec("--width", "PIXELS", .control, "screenshot: scaled to this width"),
        OptionSpec("-o", "FILE.png", .control, "screenshot: where the PNG goes"),
    ]
    static let summary = """
        Manage screens through their MQTT broker: list them with their retained status, send a command to a screen or
        group/G and print each reply, push a configuration file, or fetch a screenshot.
        """

    enum Action {
        case list(json: Bool)
        case send(target: String, words: [String])
        case push(target: String, file: String)
        case screenshot(id: String, output: String, width: Int?)
    }

    let settings: MQTTClient.Settings
    let action: Action
    let timeout: Double

    init(parsing parser: inout ArgumentParser) throws {
        let broker = try parser.option("--broker"), configPath = try parser.option("--config")
        let username = try parser.option("--username"), passwordFile = try parser.option("--password-file")
        let caFile = try parser.option("--cacert"), certFile = try parser.option("--cert"), keyFile = try parser.option("--key")
        let timeoutText = try parser.option("--timeout"), widthText = try parser.option("--width"), output = try parser.option("-o")
        let json = parser.flag("--json")
        // Every option read before any is judged, so an unknown one is named first.
        let words = try parser.positional(acceptingNumbers: true)
        var fleet = MarqueeConfiguration.Fleet()
        if let configPath {
            do {
                fleet = try MarqueeConfiguration.load(path: configPath).fleet
            } catch {
                throw UsageError("fleet: \(error)")
            }
        }
        let base = configPath.map { PathText.deletingLastComponent($0) }
        func fromFile(_ value: String) -> String? { value.isEmpty ? nil : PlaylistResolver.absolute(value, base: base) }
        let url = broker ?? (fleet.broker.isEmpty ? nil : fleet.broker)
        guard let url else { throw UsageError("fleet: give --broker mqtt://HOST[:PORT], or --config with a [fleet] broker") }
        guard let address = BrokerAddress(url) else { throw UsageError("fleet: --broker \(url): expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]") }
        var settings = MQTTClient.Settings(broker: address, clientID: "marquee-fleet-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        settings.username = username ?? (fleet.username.isEmpty ? nil : fleet.username)
        if let passwordFile = passwordFile ?? fromFile(fleet.passwordFile) {
            do throws(ControlError) {
                settings.password = try SecretFile.read(passwordFile, what: "--password-file")
            } catch {
                throw UsageError("fleet: \(error.message)")
            }
        }
        settings.caFile = caFile ?? fromFile(fleet.caFile)
        settings.certFile = certFile ?? fromFile(fleet.certFile)
        settings.keyFile = keyFile ?? fromFile(fleet.keyFile)
        settings.retry = RetrySchedule(initial: 0.5, cap: 2)
        self.settings = settings
        timeout = try timeoutText.map { text in
            guard let seconds = Double(text), seconds > 0, seconds <= 3600 else { throw UsageError("fleet: --timeout \(text): give seconds from 0 to 3600") }
            return seconds
        } ?? 5
        let width = try widthText.map { text in
            let widths = PlayControls.screenshotWidths
            guard let pixels = Int(text), widths.contains(pixels) else {
                throw UsageError("fleet: --width \(text): give pixels from \(widths.lowerBound) to \(widths.upperBound)")
            }
            return pixels
        }
        func target(_ text: String) throws -> String {
            let name = text.hasPrefix("group/") ? String(text.dropFirst(6)) : text
            guard MarqueeConfiguration.Fleet.isTopicName(name) else { throw UsageError("fleet: '\(text)' is not a screen id or group/NAME") }
            return text
        }
        switch (words.first, words.count) {
        case ("list", 1): action = .list(json: json)
        case ("send", 3...): action = .send(target: try target(words[1]), words: Array(words.dropFirst(2)))
        case ("push", 3): action = .push(target: try target(words[1]), file: words[2])
        case ("screenshot", 2):
            guard let output else { throw UsageError("fleet screenshot: give -o FILE.png") }
            guard !words[1].hasPrefix("group/") else { throw UsageError("fleet screenshot: one screen's id, not a group") }
            action = .screenshot(id: try target(words[1]), output: output, width: width)
        default:
            throw UsageError("fleet: expected \(Self.operands)")
        }
    }

    func run() async -> Int32 {
        do {
            let console = try FleetConsole(settings: settings)
            try console.connect(timeout: timeout)
            switch action {
            case .list(let json): return try list(console, json: json)
            case .send(let target, let words):
                let id = "fleet-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
                let request = JSONValue.object(["command": .string(words[0]), "args": .array(words.dropFirst().map(JSONValue.string)),
                                                "id": .string(id)])
                return try exchange(console, target: target, id: id,
                                    message: MQTTMessage(topic: FleetTopics.commandTopic(for: target), text: request.jsonText, qos: 1))
            case .push(let target, let file):
                guard let data = FileManager.default.contents(atPath: file) else {
                    Diagnostics.error("fleet push: \(file): cannot be read (\(String(cString: strerror(errno))))")
                    return 1
                }
                let document = Array(data)
                return try exchange(console, target: target, id: FleetTopics.pushID(of: document),
                                    message: MQTTMessage(topic: FleetTopics.configTopic(for: target), payload: document, qos: 1))
            case .screenshot(let id, let output, let width):
                return try screenshot(console, id: id, output: output, width: width)
            }
        } catch {
            Diagnostics.error("fleet: \(error)")
            return 1
        }
    }
}
