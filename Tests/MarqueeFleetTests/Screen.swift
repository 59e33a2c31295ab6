import Foundation
import MarqueeCore
import MarqueeFleet
import MarqueeTestSupport
import Synchronization
import Testing

/// One `marquee play` in a fleet: a still picture on a null display, no
/// sound, its configuration (with `[fleet]`) and play log in a folder of
/// its own, its stderr kept.
final class Screen {
    let id: String
    let folder: String
    var configPath: String { "\(folder)/marquee.toml" }
    var playsPath: String { "\(folder)/plays.log" }
    var stderrPath: String { "\(folder)/stderr.log" }
    private var process: Process?

    /// - Parameters:
    ///   - fleet: the `[fleet]` keys besides `id` (broker, credentials, groups).
    ///   - imageSeconds: each showing's length, so the play log grows.
    init(id: String, fleet: String, imageSeconds: Double = 5, extra: String = "") throws {
        self.id = id
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-screen-\(id)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(folder)/media", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Self.still(), toPath: "\(folder)/media/still.png")
        try Self.configuration(id: id, fleet: fleet, imageSeconds: imageSeconds, extra: extra)
            .write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    static func configuration(id: String, fleet: String, imageSeconds: Double, extra: String = "") -> String {
        """
        [playback]
        playlist = ["media/still.png"]
        loop = "playlist"
        image_duration = \(imageSeconds)
        media_roots = ["media"]
        \(extra)

        [log]
        plays = "plays.log"

        [fleet]
        id = "\(id)"
        status_interval = 5
        \(fleet)

        """
    }

    /// A 320x240 test picture, made once per run.
    static func still() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-fleet-still.png").path
        if FileManager.default.fileExists(atPath: path) { return path }
        let made = try Command.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1", path])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    func start(environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MarqueeExecutable.path)
        process.arguments = ["play", "--config", configPath, "--video-out", "null", "--no-audio"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        self.process = process
    }

    var isRunning: Bool { process?.isRunning ?? false }
    var processIdentifier: Int32? { process?.processIdentifier }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Stops it as systemd would (SIGTERM; the player handles it whatever the inherited mask).
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    func kill() {
        guard let process, process.isRunning else { return }
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// The test's own client of a broker: what arrives, kept in order.
final class Listener: Sendable {
    let client: MQTTClient
    private final class Inbox: Sendable {
        let state = Mutex<(messages: [MQTTMessage], subscribed: Set<Int32>, connected: Int)>(([], [], 0))
    }

    private let inbox = Inbox()

    init(_ broker: Mosquitto, id: String = "test-\(UUID().uuidString.prefix(8))", persistent: Bool = false,
         configure: (inout MQTTClient.Settings) -> Void = { _ in }) throws {
        var settings = MQTTClient.Settings(broker: try #require(BrokerAddress(broker.url)), clientID: id)
        settings.retry = RetrySchedule(initial: 0.05, cap: 0.2, jitter: 0)
        settings.cleanSession = !persistent
        configure(&settings)
        let inbox = self.inbox
        client = try MQTTClient(settings: settings) { event in
            switch event {
            case .message(let message): inbox.state.withLock { $0.messages.append(message) }
            case .subscribed(let messageID): inbox.state.withLock { _ = $0.subscribed.insert(messageID) }
            case .connected: inbox.state.withLock { $0.connected += 1 }
            default: break
            }
        }
        client.start()
    }

    var connections: Int { inbox.state.withLock { $0.connected } }

    func waitConnected() async throws {
        try await Wait.until("connected to the broker") { client.isConnected }
    }

    func subscribe(_ filters: String...) async throws {
        try await waitConnected()
        let ids = try filters.map { try client.subscribe($0, qos: 1) }
        try await Wait.until("subscribed to \(filters)") { inbox.state.withLock { Set(ids).isSubset(of: $0.subscribed) } }
    }

    var messages: [MQTTMessage] { inbox.state.withLock { $0.messages } }

    func messages(on topic: String) -> [MQTTMessage] { messages.filter { $0.topic == topic } }

    func clear() { inbox.state.withLock { $0.messages.removeAll() } }

    /// The JSON objects received on topics matching `suffix` (e.g. "/reply").
    func objects(endingWith suffix: String) -> [(topic: String, object: [String: Any])] {
        messages.filter { $0.topic.hasSuffix(suffix) }.compactMap { message in
            (try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any]).map { (message.topic, $0) }
        }
    }
}

enum Wait {
    /// Polls `condition` every 20 ms for up to `seconds`.
    static func until(_ what: String, seconds: Double = 60, _ condition: () throws -> Bool) async throws {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while try !condition() {
            try #require(Date() < deadline, "timed out waiting: \(what)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
