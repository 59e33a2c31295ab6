import MarqueeCore

extension MarqueeConfiguration {
    /// `[fleet]`: this screen in a fleet managed through an MQTT broker
    /// (docs/fleet.md). No broker, no fleet.
    public struct Fleet: Sendable, Equatable {
        /// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`; "" for none.
        public var broker = ""
        /// PEM files for `mqtts://`: the CA that signed the broker's
        /// certificate ("" : the system's), and this screen's certificate and key.
        public var caFile = ""
        public var certFile = ""
        public var keyFile = ""
        public var username = ""
        /// A file holding the password (its first line).
        public var passwordFile = ""
        /// This screen's name in topics; "" : the host name.
        public var id = ""
        /// Groups whose commands and configurations this screen takes.
        public var groups: [String] = []
        /// Seconds between retained status messages (and at every change of item).
        public var statusInterval = 30.0

        public init() {}

        public var address: BrokerAddress? { BrokerAddress(broker) }

        /// Whether `name` can stand in a topic level: not empty, no `/`,
        /// `+`, `#`, control characters or NUL, at most 64 bytes.
        public static func isTopicName(_ name: String) -> Bool {
            !name.isEmpty && name.utf8.count <= 64 && !name.unicodeScalars.contains { "/+#".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F }
        }
    }
}

extension MarqueeConfiguration.Fleet {
    mutating func read(_ reader: TableReader) {
        reader.read(&broker, "broker")
        reader.read(&caFile, "ca_file")
        reader.read(&certFile, "cert_file")
        reader.read(&keyFile, "key_file")
        reader.read(&username, "username")
        reader.read(&passwordFile, "password_file")
        reader.read(&id, "id")
        reader.read(&groups, "groups")
        reader.read(&statusInterval, "status_interval", in: 1...86_400, unit: " s")
        reader.finish()
        func complain(_ key: String, _ message: String) {
            if let value = reader.table[key] { reader.error(key, message, at: value.location) }
        }
        if !broker.isEmpty, address == nil {
            complain("broker", "expected \"mqtt://HOST[:PORT]\" or \"mqtts://HOST[:PORT]\", found '\(broker)'")
        }
        if address?.tls != true {
            for (key, value) in [("ca_file", caFile), ("cert_file", certFile), ("key_file", keyFile)] where !value.isEmpty {
                complain(key, "TLS files need an mqtts:// broker")
            }
        }
        if certFile.isEmpty != keyFile.isEmpty { complain(certFile.isEmpty ? "key_file" : "cert_file", "cert_file and key_file go together") }
        if !passwordFile.isEmpty, username.isEmpty { complain("password_file", "needs username") }
        if !id.isEmpty, !Self.isTopicName(id) { complain("id", "'\(id)' cannot name a topic level (no '/', '+', '#' or control characters, 1 to 64 bytes)") }
        if let bad = groups.first(where: { !Self.isTopicName($0) }) {
            complain("groups", "'\(bad)' cannot name a topic level (no '/', '+', '#' or control characters, 1 to 64 bytes)")
        }
    }
}
