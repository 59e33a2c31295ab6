import Glibc

/// A Unix socket's address: a path of at most 107 bytes (sun_path less its NUL).
struct SocketAddress {
    private(set) var storage = sockaddr_un()
    let path: String

    /// - Throws: `SocketError` for a path too long for sun_path or empty.
    init(_ path: String) throws(SocketError) {
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            throw SocketError("bind", path: path, reason: "a socket path must be 1 to \(capacity - 1) bytes")
        }
        self.path = path
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    /// Calls `body` with the address as the socket calls take it.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
