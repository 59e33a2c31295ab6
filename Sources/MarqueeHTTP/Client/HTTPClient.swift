import Glibc

/// A client for the player's HTTP API, for `marquee ctl`: one request per
/// connection, the bearer token with each, a file body streamed from disk
/// after the server has said it will take it (`Expect: 100-continue`), so
/// a refused upload (too big, a disk too full, a bad name) costs no bytes.
public struct HTTPClient: Sendable {
    public let server: ServerURL
    private let token: String?
    private let trustFile: String?

    /// - Parameter trustFile: PEM certificates to trust for https (a
    ///   self-signed server's own); nil: the system's trust store.
    public init(server: ServerURL, token: String? = nil, trustFile: String? = nil) {
        self.server = server
        self.token = token
        self.trustFile = trustFile
    }

    public enum Body: Sendable {
        case none
        case bytes([UInt8])
        /// A file, read as it is sent.
        case file(String)
    }

    /// Sends one request and reads the whole answer.
    /// - Parameter path: already percent-encoded.
    /// - Throws: `HTTPClientError` naming what failed (the file, the
    ///   connection, TLS, an answer that is not HTTP).
    public func send(_ method: String, _ path: String, body: Body = .none, contentType: String? = nil) throws(HTTPClientError) -> HTTPClientResponse {
        var file: Int32 = -1
        var length = 0
        switch body {
        case .none: break
        case .bytes(let bytes): length = bytes.count
        case .file(let path):
            file = open(path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard file >= 0, fstat(file, &info) == 0 else {
                throw HTTPClientError(url: server.text, call: "open", reason: "\(path): \(String(cString: strerror(errno)))")
            }
            length = Int(info.st_size)
        }
        defer { if file >= 0 { close(file) } }
        let connection = try ClientConnection(to: server, trustFile: trustFile)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(server.hostField)\r\nUser-Agent: marquee-ctl\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if case .none = body {} else { head += "Content-Length: \(length)\r\n" }
        if file >= 0 { head += "Expect: 100-continue\r\n" }
        try connection.send(head + "\r\n")
        var reader = ResponseReader(connection: connection, url: server.text)
        switch body {
        case .none: break
        case .bytes(let bytes): try connection.send(bytes[...])
        case .file(let path):
            let interim = try reader.head()
            guard interim.status == 100 else { return try reader.body(after: interim) }
            try stream(file, path: path, to: connection)
        }
        return try reader.body(after: reader.head())
    }

    private func stream(_ file: Int32, path: String, to connection: ClientConnection) throws(HTTPClientError) {
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw HTTPClientError(url: server.text, call: "read", reason: "\(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            try connection.send(buffer[..<count])
        }
    }
}

/// A server's answer: its status, header fields (names lowercased) and body.
public struct HTTPClientResponse: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: [UInt8]

    /// The body as UTF-8 text, a trailing line break removed.
    public var text: String {
        var text = String(decoding: body, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
