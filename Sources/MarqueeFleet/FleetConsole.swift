import MarqueeCore

/// The operator's end of the fleet (`marquee fleet`): one client that
/// connects, subscribes and waits for what the screens say, with
/// deadlines. Its calls block; use it from one thread.
public final class FleetConsole: @unchecked Sendable {
    private let client: MQTTClient
    private let inbox = Condition()
    /// Guarded by `inbox`.
    private var messages: [MQTTMessage] = []
    private var subscribed: Set<Int32> = []
    private var connected = false
    private var failure: MQTTError?

    public init(settings: MQTTClient.Settings) throws(MQTTError) {
        let box = Box()
        client = try MQTTClient(settings: settings) { event in box.console?.received(event) }
        box.console = self
    }

    private final class Box: @unchecked Sendable {
        weak var console: FleetConsole?
    }

    deinit { client.stop() }

    private func received(_ event: MQTTClient.Event) {
        inbox.withLock {
            switch event {
            case .connected: connected = true
            case .connectFailed(let error, _): failure = error
            case .disconnected(let error): failure = error
            case .message(let message): messages.append(message)
            case .subscribed(let messageID): subscribed.insert(messageID)
            case .published: break
            }
            inbox.broadcast()
        }
    }

    /// Connects, or throws the first reason it could not within `timeout` seconds.
    public func connect(timeout: Double) throws(MQTTError) {
        client.start()
        let deadline = Self.deadline(timeout)
        let outcome: MQTTError? = inbox.withLock {
            while !connected, failure == nil, inbox.wait(untilMonotonic: deadline) {}
            if connected { return nil }
            return failure ?? MQTTError(broker: client.settings.broker.description, call: "connect", message: "no answer within \(timeout) s")
        }
        if let outcome { throw outcome }
    }

    /// Subscribes and waits for the broker's acknowledgement, so nothing
    /// published after this returns is missed.
    public func subscribe(_ filters: [String], timeout: Double) throws(MQTTError) {
        var pending: [Int32] = []
        for filter in filters { pending.append(try client.subscribe(filter, qos: 1)) }
        let deadline = Self.deadline(timeout)
        let acknowledged = inbox.withLock {
            while !Set(pending).isSubset(of: subscribed), inbox.wait(untilMonotonic: deadline) {}
            return Set(pending).isSubset(of: subscribed)
        }
        guard acknowledged else {
            throw MQTTError(broker: client.settings.broker.description, call: "subscribe", message: "not acknowledged within \(timeout) s")
        }
    }

    public func publish(_ message: MQTTMessage) throws(MQTTError) {
        try client.publish(message)
    }

    /// The next message received, or nil once `deadline` (monotonic) passes.
    public func next(before deadline: HostTime) -> MQTTMessage? {
        inbox.withLock {
            while messages.isEmpty, inbox.wait(untilMonotonic: deadline) {}
            return messages.isEmpty ? nil : messages.removeFirst()
        }
    }

    public static func deadline(_ seconds: Double) -> HostTime {
        MonotonicClock().now() + .milliseconds(Int64(seconds * 1000))
    }
}
