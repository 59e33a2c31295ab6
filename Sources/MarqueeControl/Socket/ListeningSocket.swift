import Glibc

/// The control socket's listening end: a non-blocking Unix stream socket
/// bound at a path with the permissions asked for. Owns the descriptor and
/// the file: closes one and removes the other (if it is still its own) when
/// it goes.
final class ListeningSocket: Sendable {
    let descriptor: Int32
    let path: String
    /// The bound file's inode, so a socket another process has since bound
    /// at the same path is not removed.
    private let inode: ino_t

    /// Binds `path` with `mode` (0660: the owner and the service's group).
    /// A socket file left by a player that died is replaced; one that
    /// another process still answers on is not. The socket is bound and
    /// listening under a name of its own first and then renamed into place,
    /// so a client that waits for the file to appear never finds it refusing.
    /// - Throws: `SocketError` naming the call that failed.
    init(path: String, mode: mode_t, backlog: Int32 = 16) throws(SocketError) {
        let address = try SocketAddress(path)
        try Self.removeStale(address)
        let staging = try SocketAddress("\(path).\(getpid())")
        unlink(staging.path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("socket", path: path, errno: errno) }
        func fail(_ call: String) -> SocketError {
            let code = errno
            close(descriptor)
            unlink(staging.path)
            return SocketError(call, path: path, errno: code)
        }
        guard staging.withSockaddr({ bind(descriptor, $0, $1) }) == 0 else { throw fail("bind") }
        // The file appears with the process's umask; it is narrowed or widened to `mode` before anyone can be let in.
        var status = stat()
        guard chmod(staging.path, mode) == 0, stat(staging.path, &status) == 0 else { throw fail("chmod") }
        guard listen(descriptor, backlog) == 0 else { throw fail("listen") }
        guard rename(staging.path, path) == 0 else { throw fail("rename") }
        self.descriptor = descriptor
        self.path = path
        inode = status.st_ino
    }

    deinit {
        removeFile()
        close(descriptor)
    }

    /// Removes the socket file if it is still this socket's, so no client
    /// connects to a player that has stopped serving. Safe to repeat.
    func removeFile() {
        var status = stat()
        if stat(path, &status) == 0, status.st_ino == inode { unlink(path) }
    }

    /// The next waiting connection, non-blocking; nil when none is waiting.
    /// - Throws: `SocketError` naming `accept` or `fcntl` for anything but "none waiting"
    ///   and a connection that went before it was taken.
    func accept() throws(SocketError) -> ClientSocket? {
        while true {
            // accept4 is a GNU extension Glibc's module leaves out; the flags are set after.
            let client = Glibc.accept(descriptor, nil, nil)
            if client >= 0 {
                let socket = ClientSocket(descriptor: client)
                guard fcntl(client, F_SETFD, FD_CLOEXEC) == 0, fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK) == 0 else {
                    throw SocketError("fcntl", path: path, errno: errno)
                }
                return socket
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN: return nil
            default: throw SocketError("accept", path: path, errno: errno)
            }
        }
    }

    /// A socket file at `address` that nothing answers on is left by a
    /// player that died: it goes. A path that is not a socket, or one a
    /// live process listens on, is an error.
    private static func removeStale(_ address: SocketAddress) throws(SocketError) {
        var status = stat()
        guard lstat(address.path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SocketError("bind", path: address.path, reason: "the path exists and is not a socket")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw SocketError("socket", path: address.path, errno: errno) }
        defer { close(probe) }
        if address.withSockaddr({ connect(probe, $0, $1) }) == 0 {
            throw SocketError("bind", path: address.path, reason: "another process is listening on it")
        }
        guard unlink(address.path) == 0 else { throw SocketError("unlink", path: address.path, errno: errno) }
    }
}

/// One accepted connection's descriptor; closed with its owner.
final class ClientSocket: Sendable {
    let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
