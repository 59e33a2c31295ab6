/// What answers the server's requests (the routes of the HTTP control API).
public protocol HTTPHandler: Sendable {
    /// Answers one request. Called on the request's connection thread, after
    /// the whole body has arrived and the bearer token has been checked; up
    /// to `HTTPLimits.connections` calls may run at once. A slow answer holds
    /// only its own connection, and `HTTPServer.stop()` waits for it.
    func respond(to request: HTTPRequest) -> HTTPResponse
}
