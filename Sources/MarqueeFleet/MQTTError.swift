import CMosquitto
import Glibc

/// A libmosquitto call that failed, or a broker that refused the
/// connection, naming the broker and the call.
public struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `mqtt://HOST:PORT`, as the settings name it.
    public let broker: String
    public let call: String
    public let message: String

    public init(broker: String, call: String, message: String) {
        self.broker = broker
        self.call = call
        self.message = message
    }

    /// libmosquitto's code, with errno's text where the code says to read errno.
    init(broker: String, call: String, code: Int32) {
        let message = code == MQTTCode.errno ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(code))
        self.init(broker: broker, call: call, message: message)
    }

    public var description: String { "\(broker): \(call): \(message)" }
}

/// libmosquitto's return codes as Swift reads them.
enum MQTTCode {
    static let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
    static let errno = Int32(MOSQ_ERR_ERRNO.rawValue)
    static let noConnection = Int32(MOSQ_ERR_NO_CONN.rawValue)
}
