/// One request as a handler sees it: read whole, body included, and past
/// the token check before the handler is called.
public struct HTTPRequest: Sendable {
    /// The method as the client sent it: "GET", "POST", "PUT".
    public var method: String
    /// The path, percent-decoded, without the query: "/status".
    public var path: String
    /// The query's arguments, percent-decoded ("+" reads as a space). A key
    /// without "=" has the value ""; a repeated key keeps its last value.
    public var query: [String: String]
    /// Header fields by lowercased name; a field sent more than once has its
    /// values joined by ", ", as HTTP allows.
    public var headers: [String: String]
    /// The body, at most `HTTPLimits.maximumBodyBytes` bytes; empty when none came.
    public var body: [UInt8]
    /// The client's address and port: "127.0.0.1:5678", "[::1]:5678".
    public var peer: String

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = [], peer: String) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = peer
    }
}
