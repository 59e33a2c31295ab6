/// The server part of an `http://` or `https://` URL: scheme, host and
/// port, with nothing after them but an optional "/".
public struct ServerURL: Sendable, Equatable {
    public let text: String
    public let isTLS: Bool
    /// A name or a numeric address, without brackets.
    public let host: String
    public let port: UInt16

    /// - Throws: `HTTPClientError` saying what is wrong and the form expected.
    public init(_ text: String) throws(HTTPClientError) {
        func refuse(_ reason: String) -> HTTPClientError {
            HTTPClientError(url: text, reason: "\(reason); expected http://HOST:PORT or https://HOST:PORT, e.g. http://127.0.0.1:8080")
        }
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { throw refuse("not an http or https URL") }
        isTLS = lowered.hasPrefix("https://")
        var rest = text.dropFirst(isTLS ? 8 : 7)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("@"), !rest.contains("?") else { throw refuse("a path, user or query after the server") }
        let hostText: Substring, portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw refuse("an IPv6 address opened with '[' needs its ']'") }
            hostText = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw refuse("expected ':' and a port after ']'") }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = rest.lastIndex(of: ":") {
            hostText = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            hostText = rest
            portText = nil
        }
        guard !hostText.isEmpty else { throw refuse("no host") }
        if let portText {
            guard let port = UInt16(portText), port > 0 else { throw refuse("port '\(portText)' is not a number from 1 to 65535") }
            self.port = port
        } else {
            port = isTLS ? 443 : 80
        }
        host = String(hostText)
        self.text = text
    }

    /// The `Host` field: the host (IPv6 in brackets) and a port other than the scheme's.
    var hostField: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port == (isTLS ? 443 : 80) ? shown : "\(shown):\(port)"
    }
}
