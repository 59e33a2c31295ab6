import Dispatch
import FoundationEssentials
import Glibc
import Marquee
import MarqueeConfig
import MarqueeControl
import MarqueeFleet
import Synchronization

/// This screen in its fleet (`[fleet]`, docs/fleet.md): one `MQTTClient`
/// to the broker, and what goes over it. Commands and configurations
/// arrive on the screen's and its groups' topics; replies, the retained
/// status (with an `online: false` will), events, screenshots and the play
/// log go out under the screen's id. Everything received is handled on the
/// agent's serial queue (`marquee.fleet`), never on the network thread or
/// the player's; the broker being away costs playback nothing: what would
/// be said then is dropped, except the play log, which is sent from its
/// file when the broker is back.
final class FleetAgent: Sendable {
    let topics: FleetTopics
    let groups: [String]
    let client: MQTTClient
    let queue = DispatchQueue(label: "marquee.fleet")
    unowned let controls: PlayControls
    private let plays: PlayLogPublisher?
    private let state = Mutex(State())

    private struct State {
        /// The last connection problem logged, so a broker that stays away is said once.
        var lastProblem: String?
        /// Ids of recent commands, oldest first: a command delivered again (QoS 1) acts once.
        var recentIDs: [String] = []
        var stopped = false
    }

    static let rememberedIDs = 256

    /// - Throws: why the client cannot be made (a setting libmosquitto refuses, an unreadable password file).
    init(_ settings: MarqueeConfiguration.Fleet, controls: PlayControls, resolve: (String) -> String) throws {
        let id = settings.id.isEmpty ? Self.hostName() : settings.id
        topics = FleetTopics(id: id)
        groups = settings.groups
        self.controls = controls
        plays = controls.recorder.map { PlayLogPublisher(path: $0.file.path) }
        var client = MQTTClient.Settings(broker: settings.address!, clientID: "marquee-\(id)")
        client.will = MQTTMessage(topic: topics.status, text: Self.offline(id), qos: 1, retain: true)
        if !settings.username.isEmpty { client.username = settings.username }
        if !settings.passwordFile.isEmpty { client.password = try SecretFile.read(resolve(settings.passwordFile), what: "[fleet] password_file") }
        if !settings.caFile.isEmpty { client.caFile = resolve(settings.caFile) }
        if !settings.certFile.isEmpty { client.certFile = resolve(settings.certFile) }
        if !settings.keyFile.isEmpty { client.keyFile = resolve(settings.keyFile) }
        let box = WeakAgent()
        self.client = try MQTTClient(settings: client) { event in box.agent?.received(event) }
        box.agent = self
    }

    /// The client's handler holds the agent weakly: the agent owns the client.
    private final class WeakAgent: @unchecked Sendable {
        weak var agent: FleetAgent?
    }

    static func offline(_ id: String) -> String { "{\"id\":\(JSONString.quoted(id)),\"online\":false}" }

    static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "marquee" }
        let host = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return MarqueeConfiguration.Fleet.isTopicName(host) ? host : "marquee"
    }

    func start(statusInterval: Double) {
        client.start()
        statusDue(every: statusInterval)
    }

    /// The retained status again every `interval` seconds, until `stop`.
    private func statusDue(every interval: Double) {
        queue.asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self, !state.withLock({ $0.stopped }) else { return }
            publishStatus()
            statusDue(every: interval)
        }
    }

    /// Says `offline` (retained) and disconnects.
    func stop() {
        state.withLock { $0.stopped = true }
        _ = try? client.publish(MQTTMessage(topic: topics.status, text: Self.offline(topics.id), qos: 1, retain: true))
        client.stop()
        queue.sync {}
    }

    // MARK: What the client says

    private func received(_ event: MQTTClient.Event) {
        switch event {
        case .connected:
            queue.async { [self] in connected() }
        case .connectFailed(let error, let retryIn):
            problem("\(error)", then: "playing on, trying again in \(String(retryIn, places: 1)) s and on the streams' schedule after")
        case .disconnected(let error):
            problem("\(error)", then: "playing on, reconnecting")
        case .message(let message):
            queue.async { [self] in handle(message) }
        case .subscribed:
            break
        case .published(let messageID):
            queue.async { [self] in
                guard let plays, plays.acknowledged(messageID) else { return }
                plays.pump(client, topic: topics.plays, screen: topics.id)
            }
        }
    }

    /// One warning per distinct problem; the same one again is only debug.
    private func problem(_ what: String, then: String) {
        let repeated = state.withLock { state -> Bool in
            defer { state.lastProblem = what }
            return state.lastProblem == what
        }
        if repeated { controls.log.debug("fleet: \(what)") } else { controls.log.warning("fleet: \(what); \(then)") }
    }

    private func connected() {
        state.withLock { $0.lastProblem = nil }
        controls.log.info("fleet: connected to \(client.settings.broker) as \(topics.id)\(groups.isEmpty ? "" : " (groups \(groups.joined(separator: ", ")))")")
        do throws(MQTTError) {
            for topic in [topics.command, topics.config] + groups.flatMap({ [FleetTopics.groupCommand($0), FleetTopics.groupConfig($0)] }) {
                try client.subscribe(topic, qos: 1)
            }
        } catch {
            controls.log.warning("fleet: \(error)")
        }
        publishStatus()
        if let plays {
            plays.restart()
            if let failure = plays.pump(client, topic: topics.plays, screen: topics.id) { controls.log.warning("fleet: plays: \(failure)") }
        }
    }

    /// A new line in the play log (called on the recorder's queue).
    func playLineWritten() {
        queue.async { [self] in plays?.pump(client, topic: topics.plays, screen: topics.id) }
    }

    // MARK: What the screen says

    func publishStatus() {
        guard client.isConnected else { return }
        let status = controls.fleetStatus(id: topics.id, groups: groups)
        _ = try? client.publish(MQTTMessage(topic: topics.status, text: status.jsonText, qos: 1, retain: true))
    }

    /// Every control event, on the events topic; an item change also as status.
    func publish(_ event: ControlEvent) {
        guard client.isConnected else { return }
        _ = try? client.publish(MQTTMessage(topic: topics.events, text: event.line, qos: 0))
        if event.kind == .item { queue.async { [self] in publishStatus() } }
    }

    func reply(_ text: String) {
        _ = try? client.publish(MQTTMessage(topic: topics.reply, text: text, qos: 1))
    }

    // MARK: What arrives

    private func handle(_ message: MQTTMessage) {
        if message.topic.hasSuffix("/config") {
            let id = FleetTopics.pushID(of: message.payload)
            guard firstTime(id) else { return }
            let outcome = controls.pushConfiguration(message.payload)
            reply(ControlReply(id: .string(id), outcome: outcome.map { ControlResult.done($0) }).line(.json))
        } else {
            command(message.payload)
        }
    }

    /// Whether a request with this id has not been seen lately (and remembers it).
    func firstTime(_ id: String) -> Bool {
        state.withLock { state in
            guard !state.recentIDs.contains(id) else { return false }
            state.recentIDs.append(id)
            if state.recentIDs.count > Self.rememberedIDs { state.recentIDs.removeFirst() }
            return true
        }
    }
}
