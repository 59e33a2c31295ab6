import Foundation

/// Debian's Mosquitto broker, run by a test on a loopback port with a
/// configuration of its own (no persistence, its log in its folder): plain
/// MQTT open to anyone, or TLS with a test CA, client certificates and a
/// password file; optionally bridged to another broker. Killed (SIGKILL)
/// and started again on the same port for outage tests.
public final class Mosquitto {
    public let port: UInt16
    public let directory: String
    public let tls: TLS?
    /// A broker this one forwards `marquee/#` to and from, both ways.
    public let bridge: UInt16?
    private var process: Process?

    /// A test CA, the broker's certificate for 127.0.0.1, one client
    /// certificate signed by the CA, and a password file.
    public struct TLS {
        public let directory: String
        public var caFile: String { "\(directory)/ca.pem" }
        public var clientCertificate: String { "\(directory)/client.pem" }
        public var clientKey: String { "\(directory)/client.key" }
        public var passwordFile: String { "\(directory)/passwd" }

        /// - Parameter users: name and password of each account.
        public init(users: [(String, String)]) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-tls-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            func openssl(_ arguments: [String]) throws {
                let made = try Command.run("openssl", arguments)
                guard made.status == 0 else { throw CommandError.failed("openssl \(arguments[0])", made) }
            }
            try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Marquee test CA",
                         "-keyout", "\(directory)/ca.key", "-out", caFile])
            for (name, subject) in [("server", "/CN=127.0.0.1"), ("client", "/CN=screen")] {
                try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", "\(directory)/\(name).key",
                             "-out", "\(directory)/\(name).csr"])
                try "subjectAltName=IP:127.0.0.1\n".write(toFile: "\(directory)/\(name).ext", atomically: true, encoding: .utf8)
                try openssl(["x509", "-req", "-in", "\(directory)/\(name).csr", "-CA", caFile, "-CAkey", "\(directory)/ca.key",
                             "-CAcreateserial", "-days", "2", "-extfile", "\(directory)/\(name).ext", "-out", "\(directory)/\(name).pem"])
            }
            try "".write(toFile: passwordFile, atomically: true, encoding: .utf8)
            for (user, password) in users {
                let added = try Command.run("mosquitto_passwd", ["-b", passwordFile, user, password])
                guard added.status == 0 else { throw CommandError.failed("mosquitto_passwd", added) }
            }
        }
    }

    /// Sessions kept across a restart (saved every second), so a collector
    /// subscribed with a session of its own misses nothing while the broker is down.
    public let persistent: Bool

    public init(tls: TLS? = nil, bridgedTo bridge: UInt16? = nil, persistent: Bool = false) throws {
        self.tls = tls
        self.persistent = persistent
        self.bridge = bridge
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-mosquitto-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try Loopback.freePort()
    }

    deinit { kill() }

    public var url: String { "\(tls == nil ? "mqtt" : "mqtts")://127.0.0.1:\(port)" }
    public var log: String { (try? String(contentsOfFile: "\(directory)/mosquitto.log", encoding: .utf8)) ?? "" }

    public func start() throws {
        kill()
        var lines = ["listener \(port) 127.0.0.1", persistent ? "persistence true" : "persistence false",
                     "persistence_location \(directory)/", "autosave_interval 1", "log_dest file \(directory)/mosquitto.log",
                     "log_type error", "log_type warning", "log_type notice", "log_type information", "max_queued_messages 100000"]
        // As root it would become the mosquitto user, who cannot write in the test's folder.
        if getuid() == 0 { lines.append("user root") }
        if let tls {
            lines += ["cafile \(tls.caFile)", "certfile \(tls.directory)/server.pem", "keyfile \(tls.directory)/server.key",
                      "require_certificate true", "allow_anonymous false", "password_file \(tls.passwordFile)"]
        } else {
            lines.append("allow_anonymous true")
        }
        if let bridge {
            lines += ["connection central", "address 127.0.0.1:\(bridge)", "topic marquee/# both 1", "restart_timeout 1 5"]
        }
        let path = "\(directory)/mosquitto.conf"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") else {
            throw CommandError.notFound("mosquitto (apt-get install mosquitto)")
        }
        process.arguments = ["-c", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        try Loopback.waitUntilListening(port: port, what: "mosquitto listening on port \(port) (see \(directory)/mosquitto.log)")
    }

    /// Kills it outright (SIGKILL): no goodbye to its clients. (It inherits
    /// the test process's blocked SIGTERM, and resets no signal mask itself.)
    public func kill() {
        guard let process, process.isRunning else { return }
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }
}
