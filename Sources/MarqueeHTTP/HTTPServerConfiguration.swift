/// Where an HTTP server listens and what it asks of clients.
public struct HTTPServerConfiguration: Sendable {
    /// A numeric address without brackets: "127.0.0.1", "::1", "0.0.0.0",
    /// "::" (IPv6 and IPv4 both).
    public var host: String
    /// 0 asks the kernel for a free port; `HTTPServer.port` says which.
    public var port: UInt16
    /// The bearer token: with one, every request without `Authorization:
    /// Bearer <token>` gets a 401 before any handler sees it. nil or empty: none.
    public var token: String?
    /// Paths a GET may have without the token: pages that hold no data
    /// themselves (a status page whose script asks for the token and sends
    /// it with each request it makes).
    public var openPaths: Set<String> = []
    /// A PEM certificate (chain) and its unencrypted PEM private key: the
    /// server speaks only HTTPS (MHD's own TLS, through GnuTLS).
    public var tls: (certificatePEM: String, keyPEM: String)?
    public var limits: HTTPLimits

    public init(host: String, port: UInt16, token: String? = nil, tls: (certificatePEM: String, keyPEM: String)? = nil,
                limits: HTTPLimits = HTTPLimits()) {
        self.host = host
        self.port = port
        self.token = token
        self.tls = tls
        self.limits = limits
    }

    /// - Parameter listen: "127.0.0.1:8080", "[::1]:8080", "0.0.0.0:80".
    /// - Throws: `HTTPServerError` saying what is wrong with `listen`.
    public init(listen: String, token: String? = nil, tls: (certificatePEM: String, keyPEM: String)? = nil,
                limits: HTTPLimits = HTTPLimits()) throws(HTTPServerError) {
        let (host, port) = try Self.parse(listen: listen)
        self.init(host: host, port: port, token: token, tls: tls, limits: limits)
    }

    /// Splits a listen address into a numeric host (brackets removed) and a
    /// port. Host names are refused rather than looked up: what a kiosk
    /// listens on should not depend on a resolver.
    /// - Throws: `HTTPServerError` naming the address, what is wrong with it
    ///   and the form expected.
    public static func parse(listen: String) throws(HTTPServerError) -> (host: String, port: UInt16) {
        func refuse(_ reason: String) -> HTTPServerError {
            HTTPServerError(value: "listen address '\(listen)'", reason: reason)
        }
        let host: Substring, portText: Substring
        if listen.hasPrefix("[") {
            guard let close = listen.firstIndex(of: "]") else {
                throw refuse("an IPv6 host opened with '[' needs its ']', e.g. [::1]:8080")
            }
            host = listen[listen.index(after: listen.startIndex)..<close]
            let rest = listen[listen.index(after: close)...]
            guard rest.hasPrefix(":") else { throw refuse("expected ':' and a port after ']', e.g. [::1]:8080") }
            portText = rest.dropFirst()
            guard SocketAddress(host: String(host), port: 0)?.isIPv6 == true else {
                throw refuse("'\(host)' is not a numeric IPv6 address")
            }
        } else {
            guard let colon = listen.lastIndex(of: ":") else {
                throw refuse("expected HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080")
            }
            host = listen[..<colon]
            portText = listen[listen.index(after: colon)...]
            guard !host.contains(":") else { throw refuse("an IPv6 host goes in brackets, e.g. [::1]:8080") }
            guard !host.isEmpty else {
                throw refuse("no host before the port (0.0.0.0 is every IPv4 address, [::] every address)")
            }
            guard SocketAddress(host: String(host), port: 0)?.isIPv6 == false else {
                throw refuse("'\(host)' is not a numeric IPv4 address (names are not looked up; 127.0.0.1 is loopback)")
            }
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
              let port = UInt16(portText) else {
            throw refuse("port '\(portText)' is not a number from 0 to 65535")
        }
        return (String(host), port)
    }

    /// "127.0.0.1:8080" or "[::1]:8080": the address as `parse(listen:)` reads it.
    public var listenAddress: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// True for 127.0.0.0/8 and ::1, which only this machine can reach.
    public var isLoopback: Bool { SocketAddress(host: host, port: port)?.isLoopback ?? false }

    /// Listening on anything but loopback needs a token and TLS, since the
    /// API can change what the screen shows. Returns the one-line reason to
    /// refuse to start, or nil.
    public func refusal() -> String? {
        guard !isLoopback else { return nil }
        var missing: [String] = []
        if token?.isEmpty ?? true { missing.append("a token") }
        if tls == nil { missing.append("TLS (a certificate and key)") }
        guard !missing.isEmpty else { return nil }
        return "refusing to listen on \(listenAddress): an address other than loopback needs \(missing.joined(separator: " and "))"
    }
}
