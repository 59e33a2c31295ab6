import Foundation
import MarqueeTestSupport

/// One request written on a raw loopback socket, to send what curl will
/// not (broken request lines, huge headers, lies about lengths), and what
/// came back: a status code, or nothing before the server closed.
enum RawHTTP {
    enum Outcome: Equatable {
        case status(Int)
        case closed
    }

    /// Sends `request` and reads the status line (giving up after 15 s: the
    /// server's idle limit is 10 s).
    static func exchange(_ request: [UInt8], port: UInt16) -> Outcome {
        guard let socket = Loopback.connect(port: port, timeout: 15) else { return .closed }
        defer { close(socket) }
        var offset = 0
        while offset < request.count {
            let sent = request[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer and close before reading it all (a body over its limit).
            if sent <= 0 { break }
            offset += sent
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !reply.contains(0x0A) {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            reply += buffer[..<count]
        }
        let line = String(decoding: reply.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self).split(separator: " ")
        guard line.count >= 2, line[0].hasPrefix("HTTP/"), let code = Int(line[1]) else { return .closed }
        return .status(code)
    }
}

/// Malformed and oversized requests of many kinds, chosen by index, with
/// random parts from a seeded generator.
enum MalformedRequests {
    static func make(_ index: Int, using generator: inout SeededGenerator) -> [UInt8] {
        func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let host = "Host: 127.0.0.1\r\n"
        switch index % 12 {
        case 0: return random(Int.random(in: 1...2000, using: &generator)) + Array("\r\n\r\n".utf8)
        case 1: return Array("GARBAGE\r\n\r\n".utf8)
        case 2: return Array("GET /status HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n".utf8)
        case 3:
            // Every 36th a body of 1.1 MiB actually sent; the rest only claim one.
            let size = index % 36 == 3 ? 1_150_000 : 0
            return Array("POST /command HTTP/1.1\r\n\(host)Content-Length: \(size == 0 ? 5_000_000 : size)\r\n\r\n".utf8)
                + [UInt8](repeating: 0x61, count: size)
        case 4: return Array("GET /x%00y HTTP/1.1\r\n\(host)\r\n".utf8)
        case 5: return Array("PATCH /status HTTP/1.1\r\n\(host)\r\n".utf8)
        case 6:
            let body = String(decoding: random(40).map { $0 & 0x7F | 0x20 }, as: UTF8.self)
            return Array("POST /command HTTP/1.1\r\n\(host)Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        case 7: return Array("GET /status HTTP/1.1\r\n\r\n".utf8)
        case 8: return Array("GET /status HTTP/1.1\r\n\(host)this header has no colon\r\n\r\n".utf8)
        case 9:
            let body = #"["../../../etc/shadow", "file:///etc/passwd"]"#
            return Array("PUT /playlist HTTP/1.1\r\n\(host)Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        case 10: return Array("GET /screenshot.png?width=\(Int.random(in: -5...15, using: &generator)) HTTP/1.1\r\n\(host)\r\n".utf8)
        default: return Array("GET /\(String(decoding: random(30).map { $0 & 0x3F | 0x40 }, as: UTF8.self)) HTTP/1.1\r\n\(host)\r\n".utf8)
        }
    }
}

/// A client that sends a request a byte a second, holding a connection
/// until the server's idle limit cuts it or `stop()`.
final class SlowClient: @unchecked Sendable {
    // @unchecked: `stopped` is an atomic flag read by the sending thread.
    private let socket: Int32?
    private let stopped = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private let done = DispatchSemaphore(value: 0)
    /// Set (1) when the server closed the connection under it.
    private let cut = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    init(port: UInt16) {
        socket = Loopback.connect(port: port, timeout: 1)
        stopped.initialize(to: 0)
        cut.initialize(to: 0)
        Thread { [self] in
            defer { done.signal() }
            guard let socket else { return }
            for byte in Array("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: \(String(repeating: "z", count: 100))".utf8) {
                if stopped.pointee != 0 { return }
                var value = byte
                if send(socket, &value, 1, Int32(MSG_NOSIGNAL)) <= 0 {
                    cut.pointee = 1
                    return
                }
                sleep(1)
            }
        }.start()
    }

    /// Whether the server has cut the connection (seen at the next byte sent).
    var wasCut: Bool { cut.pointee != 0 }

    func stop() {
        stopped.pointee = 1
        done.wait()
        if let socket { close(socket) }
    }

    deinit {
        stopped.deallocate()
        cut.deallocate()
    }
}

