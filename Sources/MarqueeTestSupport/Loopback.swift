import Foundation

/// TCP on 127.0.0.1, for the servers tests start: a port to give them, and
/// connections to see whether they answer.
public enum Loopback {
    public static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    /// A port the kernel had free a moment ago.
    public static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var address = Self.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// A connected socket (the caller closes it), or nil when nothing
    /// listens on `port`. Reads on it give up after `timeout` seconds.
    public static func connect(port: UInt16, timeout: Double) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        var address = Self.address(port: port)
        let connected = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0
            && withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        guard connected else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Waits (polling every 10 ms, `seconds` at most) until something accepts on `port`.
    /// - Throws: `CommandError.notFound(what)` when nothing does.
    public static func waitUntilListening(port: UInt16, seconds: Double = 5, what: String) throws {
        for _ in 0..<Int(seconds * 100) {
            if let descriptor = connect(port: port, timeout: 1) {
                close(descriptor)
                return
            }
            usleep(10_000)
        }
        throw CommandError.notFound(what)
    }
}
