/// Why a request of `HTTPClient` got no answer: a C call that failed
/// (connect, a TLS handshake, a certificate that does not verify), an
/// answer that is not HTTP, or a URL that cannot be used; each names the
/// server's URL.
public struct HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// "http://127.0.0.1:8080", as given.
    public let url: String
    /// The call that failed ("connect", "gnutls_handshake"), or nil.
    public let call: String?
    public let reason: String

    public init(url: String, call: String? = nil, reason: String) {
        self.url = url
        self.call = call
        self.reason = reason
    }

    /// `https://10.0.0.5:8443: gnutls_handshake: The certificate is NOT trusted.`
    public var description: String {
        "\(url): " + (call.map { "\($0): " } ?? "") + reason
    }
}
