import CMosquitto
import Glibc
import MarqueeCore
import Synchronization

/// One connection to an MQTT broker through libmosquitto: the only owner
/// of its `struct mosquitto`. Its thread (`marquee.mqtt`) connects, runs
/// libmosquitto's network loop while connected (select(2) on the socket
/// and libmosquitto's wake-up pipe, so a publish from any thread goes out
/// at once) and, when the broker is unreachable, refuses or goes away,
/// waits out the network sources' retry schedule (1 s doubling to 30 s,
/// with jitter, so a fleet does not reconnect in step) and tries again,
/// for as long as the client lives. Nothing is queued while disconnected:
/// `publish` then throws, and what must arrive is the caller's to send
/// again (the play log from its file).
///
/// Thread-safe. `handler` is called on the client's thread, in order.
public final class MQTTClient: @unchecked Sendable {
    public struct Settings: Sendable {
        public var broker: BrokerAddress
        public var clientID: String
        public var username: String?
        public var password: String?
        /// PEM files for `mqtts://`: the CA that signed the broker's
        /// certificate (nil: the system's), and this client's certificate and key.
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?
        /// Published by the broker if this client goes away without saying so.
        public var will: MQTTMessage?
        public var keepAliveSeconds: Int32 = 30
        /// false: the broker keeps this client's subscriptions and its QoS 1
        /// messages while it is away (a collector of play logs).
        public var cleanSession = true
        public var retry = RetrySchedule()

        public init(broker: BrokerAddress, clientID: String) {
            self.broker = broker
            self.clientID = clientID
        }
    }

    public enum Event: Sendable {
        /// The broker accepted the connection: subscribe here (sessions are clean).
        case connected
        /// A connection attempt failed or was refused; the next comes after `retryIn` seconds.
        case connectFailed(MQTTError, retryIn: Double)
        /// An accepted connection ended; reconnecting follows.
        case disconnected(MQTTError)
        case message(MQTTMessage)
        /// The broker acknowledged the QoS 1 publish with this message id.
        case published(messageID: Int32)
        /// The broker acknowledged the subscription with this message id.
        case subscribed(messageID: Int32)
    }

    public let settings: Settings
    private let handle: OpaquePointer
    private let handler: @Sendable (Event) -> Void
    private let wake = Condition()
    /// Guarded by `wake`.
    private var stopping = false, running = false
    private let connected = Atomic<Bool>(false)
    /// Set by the CONNACK callback when the broker refused this attempt (it was reported there).
    private var refused = false

    /// - Throws: `MQTTError` naming the call that rejected a setting (an unreadable TLS file, a bad will topic).
    public init(settings: Settings, handler: @escaping @Sendable (Event) -> Void) throws(MQTTError) {
        let broker = settings.broker.description
        if let failure = MQTTLibrary.failure { throw MQTTError(broker: broker, call: failure.call, message: failure.message) }
        guard let handle = mosquitto_new(settings.clientID, settings.cleanSession, nil) else {
            throw MQTTError(broker: broker, call: "mosquitto_new", code: MQTTCode.errno)
        }
        self.handle = handle
        self.settings = settings
        self.handler = handler
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        func check(_ call: String, _ code: Int32) throws(MQTTError) {
            guard code == MQTTCode.success else { throw MQTTError(broker: broker, call: call, code: code) }
        }
        // The calls come from other threads than the loop's.
        try check("mosquitto_threaded_set", mosquitto_threaded_set(handle, true))
        try check("mosquitto_int_option(TCP_NODELAY)", mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1))
        if settings.broker.tls {
            if settings.caFile == nil { try check("mosquitto_int_option(TLS_USE_OS_CERTS)", mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1)) }
            try check("mosquitto_tls_set", mosquitto_tls_set(handle, settings.caFile, nil, settings.certFile, settings.keyFile, nil))
        }
        if let username = settings.username {
            try check("mosquitto_username_pw_set", mosquitto_username_pw_set(handle, username, settings.password))
        }
        if let will = settings.will {
            try check("mosquitto_will_set", will.payload.withUnsafeBytes {
                mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
            })
        }
        mosquitto_connect_callback_set(handle) { _, context, code in MQTTClient.from(context).connackArrived(code) }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let message = message?.pointee else { return }
            let payload = message.payloadlen > 0 ? Array(UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen))) : []
            MQTTClient.from(context).handler(.message(MQTTMessage(topic: String(cString: message.topic), payload: payload,
                                                                  qos: message.qos, retain: message.retain)))
        }
        mosquitto_publish_callback_set(handle) { _, context, messageID in MQTTClient.from(context).handler(.published(messageID: messageID)) }
        mosquitto_subscribe_callback_set(handle) { _, context, messageID, _, _ in
            MQTTClient.from(context).handler(.subscribed(messageID: messageID))
        }
    }

    deinit {
        stop()
        mosquitto_destroy(handle)
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MQTTClient {
        Unmanaged<MQTTClient>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Whether the broker has accepted the connection and it has not ended since.
    public var isConnected: Bool { connected.load(ordering: .acquiring) }

    /// Starts the thread that connects and stays connected; returns at once.
    public func start() {
        let start = wake.withLock { () -> Bool in
            guard !running, !stopping else { return false }
            running = true
            return true
        }
        guard start else { return }
        NamedThread.start("marquee.mqtt") { [self] in
            run()
            wake.withLock {
                running = false
                wake.broadcast()
            }
        }
    }

    /// Disconnects (the will is not sent) and waits for the thread to end.
    public func stop() {
        wake.withLock {
            stopping = true
            wake.broadcast()
        }
        // Wakes the loop's select(2) when connected; otherwise the loop wakes within its second.
        _ = mosquitto_disconnect(handle)
        wake.withLock {
            while running { wake.wait() }
        }
    }

    /// - Returns: the message id (matched by `.published` for QoS 1).
    /// - Throws: `MQTTError` (`MOSQ_ERR_NO_CONN` while disconnected: nothing is queued).
    @discardableResult
    public func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        guard isConnected else { throw MQTTError(broker: settings.broker.description, call: "mosquitto_publish", code: MQTTCode.noConnection) }
        var messageID: Int32 = 0
        let code = message.payload.withUnsafeBytes {
            mosquitto_publish(handle, &messageID, message.topic, Int32($0.count), $0.baseAddress, message.qos, message.retain)
        }
        guard code == MQTTCode.success else { throw MQTTError(broker: settings.broker.description, call: "mosquitto_publish", code: code) }
        return messageID
    }

    /// Subscribes to `filter` (wildcards allowed). Call from `.connected` in a clean session.
    /// - Returns: the message id (matched by `.subscribed`).
    @discardableResult
    public func subscribe(_ filter: String, qos: Int32 = 1) throws(MQTTError) -> Int32 {
        var messageID: Int32 = 0
        let code = mosquitto_subscribe(handle, &messageID, filter, qos)
        guard code == MQTTCode.success else { throw MQTTError(broker: settings.broker.description, call: "mosquitto_subscribe \(filter)", code: code) }
        return messageID
    }

    private func connackArrived(_ code: Int32) {
        if code == 0 {
            connected.store(true, ordering: .releasing)
            handler(.connected)
        } else {
            refused = true
            let why = String(cString: mosquitto_connack_string(code))
            handler(.connectFailed(MQTTError(broker: settings.broker.description, call: "CONNACK", message: why),
                                   retryIn: settings.retry.delay(beforeRetry: 1, unit: 0)))
        }
    }

    private var isStopping: Bool { wake.withLock { stopping } }

    private func run() {
        let broker = settings.broker.description
        var attempt = 0, first = true
        while !isStopping {
            attempt += 1
            let delay = settings.retry.delay(beforeRetry: attempt, unit: Double.random(in: -1...1))
            refused = false
            let code = first ? mosquitto_connect_async(handle, settings.broker.host, Int32(settings.broker.port), settings.keepAliveSeconds)
                : mosquitto_reconnect_async(handle)
            let call = first ? "mosquitto_connect_async" : "mosquitto_reconnect_async"
            first = false
            var failure = code == MQTTCode.success ? nil : MQTTError(broker: broker, call: call, code: code)
            if failure == nil {
                var loop = MQTTCode.success
                while loop == MQTTCode.success, !isStopping { loop = mosquitto_loop(handle, 1000, 1) }
                if isStopping { break }
                failure = MQTTError(broker: broker, call: "mosquitto_loop", code: loop)
            }
            if connected.exchange(false, ordering: .acquiringAndReleasing) {
                // The session was up: the schedule starts again from its first delay.
                attempt = 0
                handler(.disconnected(failure!))
                sleep(seconds: settings.retry.delay(beforeRetry: 1, unit: Double.random(in: -1...1)))
                continue
            }
            if !refused { handler(.connectFailed(failure!, retryIn: delay)) }
            sleep(seconds: delay)
        }
        connected.store(false, ordering: .releasing)
    }

    private func sleep(seconds: Double) {
        let deadline = MonotonicClock().now() + .milliseconds(Int64(seconds * 1000))
        wake.withLock {
            while !stopping, wake.wait(untilMonotonic: deadline) {}
        }
    }
}
