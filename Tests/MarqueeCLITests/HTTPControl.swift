import Foundation
import MarqueeTestSupport

/// A `marquee play` with its HTTP API on a loopback port, in a scratch
/// folder, driven through curl: what the tests of issue 21 share.
final class HTTPPlayer {
    let folder: String
    let port: UInt16
    let player: BackgroundMarquee
    let scheme: String
    /// curl's arguments for TLS and the token, when the server wants them.
    var curlExtras: [String] = []

    /// - Parameters:
    ///   - http: more `[controls.http]` keys (listen is set here).
    ///   - playback: `[playback]` keys.
    init(inputs: [String], http: String = "", playback: String = "", host: String = "127.0.0.1", tls: Bool = false,
         arguments: [String] = [], environment: [String: String] = [:], folder given: String? = nil) throws {
        folder = given ?? FileManager.default.temporaryDirectory.appendingPathComponent("http-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try Loopback.freePort()
        scheme = tls ? "https" : "http"
        let config = "[controls.stdin]\nenabled = false\n[controls.http]\nlisten = \"\(host):\(port)\"\n\(http)\n[playback]\n\(playback)\n"
        try config.write(toFile: "\(folder)/marquee.toml", atomically: true, encoding: .utf8)
        player = try BackgroundMarquee(["play"] + inputs + ["--config", "\(folder)/marquee.toml", "--video-out", "null",
                                                            "--audio-out", "null"] + arguments, environment: environment)
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let socket = Loopback.connect(port: port, timeout: 1) {
                close(socket)
                break
            }
            usleep(50_000)
        }
    }

    var url: String { "\(scheme)://127.0.0.1:\(port)" }

    /// One request by curl: the status code and the body (text), or the body into `output`.
    func request(_ path: String, method: String = "GET", body: String? = nil, output: String? = nil,
                 extra: [String] = []) throws -> (status: Int, body: String) {
        var arguments = ["-s", "-S", "--max-time", "20", "-X", method, "-w", "\n%{http_code}"] + curlExtras + extra
        if let body { arguments += ["--data-binary", body] }
        if let output { arguments += ["-o", output] }
        let result = try Command.run("curl", arguments + ["\(url)\(path)"], timeout: 30)
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        var body = lines.joined(separator: "\n")
        // A one-line answer ends with its line break.
        if body.hasSuffix("\n") { body.removeLast() }
        return (status, body)
    }

    func json(_ path: String) throws -> [String: Any] {
        let (status, body) = try request(path)
        guard status == 200 else { return ["httpStatus": status, "body": body] }
        return (try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:]
    }

    func stop() -> (status: Int32, stdout: String, stderr: String) { player.stop() }
}
