import Foundation

/// A TCP connection to 127.0.0.1 written and read byte for byte, for the
/// requests curl will not send: malformed ones, slow ones, ones cut short.
final class RawConnection: Sendable {
    private let descriptor: Int32

    /// nil when nothing accepts on `port` (refused, or not within `timeout`).
    /// Sends and reads each give up after `timeout` seconds.
    init?(port: UInt16, timeout: Double) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0
            && setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0
            && withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        guard connected else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// Sends all of `bytes`; false when the server closed or stopped reading
    /// (MSG_NOSIGNAL: a closed peer is EPIPE here, not a SIGPIPE that ends the tests).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// What one read gave: bytes, the server's end of the stream, or nothing
    /// within the timeout (or a reset).
    enum Read: Equatable {
        case bytes([UInt8])
        case closed
        case failed(Int32)
    }

    func read() -> Read {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .bytes(Array(buffer[..<count])) }
        return count == 0 ? .closed : .failed(errno)
    }

    /// Everything the server sends until it closes, resets or goes quiet for
    /// the timeout; `ending` says which.
    func readAll() -> (bytes: [UInt8], ending: Read) {
        var bytes: [UInt8] = []
        while true {
            let read = read()
            guard case .bytes(let more) = read else { return (bytes, read) }
            bytes += more
        }
    }

    /// Reads, adding to `text`, until it holds `marker` `occurrences` times;
    /// false if the server closed, a read timed out or `deadline` passed first.
    func read(into text: inout String, until marker: String, occurrences: Int = 1, deadline: Date) -> Bool {
        while text.components(separatedBy: marker).count - 1 < occurrences {
            guard Date() < deadline, case .bytes(let more) = read() else { return false }
            text += String(decoding: more, as: UTF8.self)
        }
        return true
    }

    /// What arrived up to and including `marker`, or before the server closed
    /// or `seconds` passed.
    func read(until marker: String, within seconds: Double = 5) -> String {
        var text = ""
        _ = read(into: &text, until: marker, deadline: Date().addingTimeInterval(seconds))
        return text
    }
}
