import Glibc

/// The service manager's notification socket, spoken to as sd_notify(3)
/// documents it, without libsystemd: each message is one datagram of
/// `KEY=VALUE` lines sent to the AF_UNIX socket `NOTIFY_SOCKET` names (a
/// path, or a leading '@' for Linux's abstract namespace). Owns its socket.
///
/// Threading: `send` from any one thread at a time (ServiceNotifier's queue).
final class NotifySocket {
    let path: String
    private let descriptor: Int32
    private var address = sockaddr_un()
    private let addressLength: socklen_t

    init(path: String) throws(NotifyError) {
        self.path = path
        let abstract = path.hasPrefix("@")
        var bytes = Array(path.utf8)
        // An abstract name starts with a NUL byte where the '@' was, and is not NUL-terminated.
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard abstract || path.hasPrefix("/"), bytes.count > 1, bytes.count < capacity else {
            throw NotifyError(call: "NOTIFY_SOCKET", code: EINVAL, path: path, detail: "not an absolute path or @name that fits a socket address")
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        addressLength = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw NotifyError(call: "socket", code: errno, path: path) }
    }

    deinit { close(descriptor) }

    /// Sends `message` as one datagram. Never blocks: a manager that does
    /// not read (EAGAIN) is an error like any other.
    func send(_ message: String) throws(NotifyError) {
        let bytes = Array(message.utf8)
        while true {
            let sent = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), socketAddress, addressLength)
                }
            }
            if sent >= 0 { return }
            guard errno == EINTR else { throw NotifyError(call: "sendto", code: errno, path: path) }
        }
    }
}

/// A notification that could not be sent: the call, errno and the socket.
struct NotifyError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    let path: String
    var detail: String?

    var description: String { "\(path): \(call): \(detail ?? String(cString: strerror(code)))" }
}
