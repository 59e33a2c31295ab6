import Foundation
import MarqueeTestSupport

/// One request made by the real curl: its status, header fields (names
/// lowercased) and body, or its exit status when no answer came.
struct CurlResult {
    var exitStatus: Int32
    var status: Int
    var headers: [String: String]
    var body: String
    var seconds: Double
}

enum Curl {
    /// Runs curl on `url` with `arguments` (method, data, headers), limited to `maxTime` seconds.
    static func run(_ url: String, _ arguments: [String] = [], maxTime: Double = 5) throws -> CurlResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let headerFile = directory.appendingPathComponent("headers").path
        let bodyFile = directory.appendingPathComponent("body").path
        let result = try Command.run("curl", ["-sS", "--max-time", "\(maxTime)", "-D", headerFile, "-o", bodyFile, "-w", "%{http_code}"]
            + arguments + [url], timeout: maxTime + 5)
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        // With a 100 Continue first, the final answer's fields are the last block.
        let lastBlock = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }.last ?? ""
        var headers: [String: String] = [:]
        for line in lastBlock.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return CurlResult(exitStatus: result.status, status: Int(result.stdout) ?? 0, headers: headers,
                          body: (try? String(contentsOfFile: bodyFile, encoding: .utf8)) ?? "", seconds: result.seconds)
    }

    /// Runs curl on `url` until it gets an answer, for up to `seconds`: a
    /// server frees a closed connection's place a moment after the close.
    static func untilAnswered(_ url: String, within seconds: Double) throws -> CurlResult {
        let deadline = Date().addingTimeInterval(seconds)
        var result = try run(url)
        while result.status == 0 && Date() < deadline {
            usleep(100_000)
            result = try run(url)
        }
        return result
    }
}
