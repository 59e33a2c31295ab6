/// An HTTP/1.1 server (libmicrohttpd) that answers every request through
/// one handler: the transport of Marquee's HTTP control API.
///
/// Each connection has a thread of its own, where its request is read, the
/// token checked, the handler called and the answer written; an event stream
/// keeps its thread while it lasts. `HTTPLimits` bounds how many there are
/// and what each may cost. Every response carries `Cache-Control: no-store`
/// and `X-Content-Type-Options: nosniff`.
///
/// Thread-safe. `stop()` must not be called from a handler or a feed, since
/// it waits for their threads.
public final class HTTPServer: Sendable {
    /// The bound port (the configuration may ask for 0, any free one).
    public let port: UInt16
    private let daemon: Daemon
    private let dispatcher: RequestDispatcher

    /// Starts listening; the server is accepting connections when this returns.
    /// - Parameter log: one line per thing a client cannot be told: a request
    ///   cut for slowness, a field MHD refused, MHD's own complaints (a failed
    ///   TLS handshake). Called on the server's threads. The default drops them.
    /// - Throws: `HTTPServerError` for a host that is not a numeric address, a
    ///   limit out of range, or MHD_start_daemon failing (with MHD's reason:
    ///   the address in use, a certificate or key GnuTLS cannot read).
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler,
                log: @escaping @Sendable (String) -> Void = { _ in }) throws(HTTPServerError) {
        guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
            throw HTTPServerError(value: "host '\(configuration.host)'", reason: "not a numeric IPv4 or IPv6 address")
        }
        if let problem = configuration.limits.problem() {
            throw HTTPServerError(value: "limits", reason: problem)
        }
        let dispatcher = RequestDispatcher(handler: handler, token: configuration.token, openPaths: configuration.openPaths,
                                           tls: configuration.tls != nil, limits: configuration.limits, log: log)
        do {
            daemon = try Daemon(configuration: configuration, address: address, dispatcher: dispatcher, log: MHDLog(forward: log))
        } catch {
            dispatcher.deadlines.stop()
            throw error
        }
        self.dispatcher = dispatcher
        port = daemon.port
    }

    /// Stops listening, ends open event streams (their feeds are closed),
    /// waits for running handlers, and returns once every connection thread
    /// is gone. Any number of times, from any thread but the server's own;
    /// also on release.
    public func stop() {
        dispatcher.streams.endAll()
        daemon.stop()
        dispatcher.deadlines.stop()
    }

    deinit { stop() }
}
