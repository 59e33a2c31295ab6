import Glibc

/// A connection to a player's control socket, for `marquee ctl`: sends
/// request lines, reads reply and event lines. Blocking. Owns the descriptor.
///
/// `@unchecked Sendable`: one thread at a time uses it (it may be handed
/// from one to another, as a test does); its line buffer is not locked.
public final class ControlSocketClient: @unchecked Sendable {
    private let socket: ClientSocket
    private let path: String
    private var splitter = LineSplitter(maximumLength: 1 << 22)
    private var lines: [String] = []

    /// - Parameter timeout: seconds a `readLine` waits for the player
    ///   before it throws (EAGAIN); nil waits for as long as it takes.
    /// - Throws: `SocketError` naming `connect` (no player there, or not allowed: ENOENT, ECONNREFUSED, EACCES).
    public init(path: String, timeout: Double? = nil) throws(SocketError) {
        let address = try SocketAddress(path)
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("socket", path: path, errno: errno) }
        socket = ClientSocket(descriptor: descriptor)
        self.path = path
        guard address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 else { throw SocketError("connect", path: path, errno: errno) }
        if let timeout {
            var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
            guard setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
                throw SocketError("setsockopt", path: path, errno: errno)
            }
        }
    }

    /// Sends one line (a line break is added).
    /// - Throws: `SocketError` naming `send` (the player went away).
    public func send(_ line: String) throws(SocketError) {
        try send(bytes: Array((line + "\n").utf8))
    }

    /// Sends bytes as they are (a test's malformed lines, not UTF-8 ones among them).
    /// - Throws: `SocketError` naming `send`.
    public func send(bytes: [UInt8]) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(socket.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SocketError("send", path: path, errno: errno)
            }
            offset += count
        }
    }

    /// The next line from the player; nil once it has closed the connection.
    /// - Throws: `SocketError` naming `recv`.
    public func readLine() throws(SocketError) -> String? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while lines.isEmpty {
            let count = buffer.withUnsafeMutableBytes { recv(socket.descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SocketError("recv", path: path, errno: errno)
            }
            let pieces = count == 0 ? splitter.finish() : splitter.feed(buffer[..<count])
            lines += pieces.compactMap { if case .line(let line) = $0 { line } else { nil } }
            if count == 0 && lines.isEmpty { return nil }
        }
        return lines.removeFirst()
    }
}
