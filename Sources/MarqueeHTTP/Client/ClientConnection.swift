import Glibc

/// One TCP connection to a server, through TLS for https. The only owner
/// of its socket; closed on release.
final class ClientConnection {
    /// How long a send or a receive may stall before the request fails.
    static let stallSeconds = 30

    private let descriptor: Int32
    private var tls: TLSSession?
    private let url: String

    /// Connects to the first address `server.host` has that answers.
    /// - Throws: `HTTPClientError` naming getaddrinfo, socket, connect or the TLS call.
    init(to server: ServerURL, trustFile: String?) throws(HTTPClientError) {
        url = server.text
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let looked = getaddrinfo(server.host, String(server.port), &hints, &found)
        guard looked == 0, let first = found else {
            throw HTTPClientError(url: server.text, call: "getaddrinfo", reason: String(cString: gai_strerror(looked)))
        }
        defer { freeaddrinfo(first) }
        var lastError: Int32 = 0
        var connected: Int32 = -1
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = address, connected < 0 {
            let socketDescriptor = socket(candidate.pointee.ai_family, candidate.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), candidate.pointee.ai_protocol)
            if socketDescriptor >= 0 {
                if connect(socketDescriptor, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0 {
                    connected = socketDescriptor
                } else {
                    lastError = errno
                    close(socketDescriptor)
                }
            } else {
                lastError = errno
            }
            address = candidate.pointee.ai_next
        }
        guard connected >= 0 else { throw HTTPClientError(url: server.text, call: "connect", reason: String(cString: strerror(lastError))) }
        descriptor = connected
        var stall = timeval(tv_sec: Self.stallSeconds, tv_usec: 0)
        for option in [SO_SNDTIMEO, SO_RCVTIMEO] {
            guard setsockopt(descriptor, SOL_SOCKET, option, &stall, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw HTTPClientError(url: server.text, call: "setsockopt", reason: reason)
            }
        }
        if server.isTLS {
            do {
                tls = try TLSSession(descriptor: descriptor, host: server.host, trustFile: trustFile, url: server.text)
            } catch {
                close(descriptor)
                throw error
            }
        }
    }

    func send(_ bytes: UnsafeRawBufferPointer) throws(HTTPClientError) {
        if let tls { return try tls.send(bytes) }
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                throw HTTPClientError(url: url, call: "send", reason: errno == EAGAIN ? "no progress in \(Self.stallSeconds) s" : String(cString: strerror(errno)))
            }
            offset += sent
        }
    }

    func send(_ text: String) throws(HTTPClientError) { try send(ArraySlice(text.utf8)) }

    func send(_ bytes: ArraySlice<UInt8>) throws(HTTPClientError) {
        // (withUnsafeBytes rethrows untyped: the typed error goes through a Result.)
        let sent: Result<Void, HTTPClientError> = bytes.withUnsafeBytes { buffer in
            do throws(HTTPClientError) {
                return .success(try send(buffer))
            } catch {
                return .failure(error)
            }
        }
        try sent.get()
    }

    /// Bytes read into the start of `buffer`; 0 at the end of the stream.
    func receive(into buffer: inout [UInt8]) throws(HTTPClientError) -> Int {
        let received: Result<Int, HTTPClientError> = buffer.withUnsafeMutableBytes { raw in
            do throws(HTTPClientError) {
                return .success(try receive(raw))
            } catch {
                return .failure(error)
            }
        }
        return try received.get()
    }

    private func receive(_ buffer: UnsafeMutableRawBufferPointer) throws(HTTPClientError) -> Int {
        if let tls { return try tls.receive(buffer) }
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count < 0 {
                if errno == EINTR { continue }
                throw HTTPClientError(url: url, call: "recv", reason: errno == EAGAIN ? "no answer in \(Self.stallSeconds) s" : String(cString: strerror(errno)))
            }
            return count
        }
    }

    deinit {
        tls = nil
        close(descriptor)
    }
}
