import Glibc

/// A control socket call that failed: the call, the socket's path and the
/// system's reason ("bind /run/marquee/control.sock: Permission denied").
public struct SocketError: Error, Sendable, CustomStringConvertible {
    public let call: String
    public let path: String
    public let errno: Int32?
    /// Said instead of the system's reason, where there is a better one.
    public let reason: String?

    init(_ call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
        reason = nil
    }

    init(_ call: String, path: String, reason: String) {
        self.call = call
        self.path = path
        errno = nil
        self.reason = reason
    }

    public var description: String {
        "control socket \(path): \(call): \(reason ?? String(cString: strerror(errno ?? 0)))"
    }
}
