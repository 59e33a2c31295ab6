/// What answers the server's requests (the routes of the HTTP control API).
public protocol HTTPHandler: Sendable {
    /// How the body of `request` (its header fields read, the token and the
    /// origin checked, `body` still empty) is taken. The default holds it
    /// in memory.
    func body(for request: HTTPRequest) -> HTTPBodyHandling

    /// Answers one request whose body was held in memory. Called on the
    /// request's connection thread, after the whole body has arrived and
    /// the bearer token has been checked; up to `HTTPLimits.connections`
    /// calls may run at once. A slow answer holds only its own connection,
    /// and `HTTPServer.stop()` waits for it.
    func respond(to request: HTTPRequest) -> HTTPResponse
}

extension HTTPHandler {
    public func body(for request: HTTPRequest) -> HTTPBodyHandling { .memory }
}
