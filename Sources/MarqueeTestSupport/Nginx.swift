import Foundation

/// Debian's nginx, run by a test on a loopback port with a configuration of
/// its own (no root, no system files): serves a folder, can be stopped and
/// started again on the same port, or switched to answering every request
/// with one status. Its access log has one line per request:
/// `SECONDS STATUS URI` (the time with milliseconds). With `tls` it serves
/// HTTPS with a self-signed certificate that openssl makes for 127.0.0.1.
public final class Nginx {
    public let port: UInt16
    public let root: String
    public let directory: String
    public let tls: Bool
    private var process: Process?

    /// - Parameter root: the folder served at `/`.
    public init(root: String, tls: Bool = false) throws {
        self.root = root
        self.tls = tls
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-nginx-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try Loopback.freePort()
        if tls {
            let made = try Command.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                                   "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                                                   "-keyout", "\(directory)/key.pem", "-out", "\(directory)/cert.pem"])
            guard made.status == 0 else { throw CommandError.failed("openssl req", made) }
        }
    }

    deinit { stop() }

    public var accessLog: String { "\(directory)/access.log" }
    public func url(_ path: String) -> String { "\(tls ? "https" : "http")://127.0.0.1:\(port)/\(path)" }

    /// Starts serving; with `status`, every request is answered with it
    /// instead; with `bytesPerSecond`, each response is sent no faster.
    public func start(answering status: Int? = nil, bytesPerSecond: Int? = nil) throws {
        stop()
        let answer = (status.map { "return \($0);" } ?? "") + (bytesPerSecond.map { " limit_rate \($0);" } ?? "")
        let certificate = tls ? "ssl_certificate \(directory)/cert.pem; ssl_certificate_key \(directory)/key.pem;" : ""
        let configuration = """
            worker_processes 1;
            daemon off;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log;
            events { worker_connections 64; }
            http {
              log_format timed '$msec $status $uri';
              access_log \(directory)/access.log timed;
              client_body_temp_path \(directory)/body;
              proxy_temp_path \(directory)/proxy;
              fastcgi_temp_path \(directory)/fastcgi;
              uwsgi_temp_path \(directory)/uwsgi;
              scgi_temp_path \(directory)/scgi;
              types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4; }
              server { listen 127.0.0.1:\(port)\(tls ? " ssl" : ""); root \(root); \(certificate) \(answer) }
            }
            """
        let path = "\(directory)/nginx.conf"
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary())
        process.arguments = ["-c", path, "-p", directory]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        try waitUntilListening()
    }

    /// Stops serving (connections are refused until `start`).
    public func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    /// Access log entries: when (seconds since 1970), status and path.
    public func requests() -> [(time: Double, status: Int, path: String)] {
        let text = (try? String(contentsOfFile: accessLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let time = Double(fields[0]), let status = Int(fields[1]) else { return nil }
            return (time, status, String(fields[2]))
        }
    }

    private func waitUntilListening() throws {
        try Loopback.waitUntilListening(port: port, seconds: 2, what: "nginx listening on port \(port) (see \(directory)/error.log)")
    }

    private static func binary() throws -> String {
        for path in ["/usr/sbin/nginx", "/usr/bin/nginx"] where FileManager.default.isExecutableFile(atPath: path) { return path }
        throw CommandError.notFound("nginx (apt-get install nginx-light)")
    }
}
