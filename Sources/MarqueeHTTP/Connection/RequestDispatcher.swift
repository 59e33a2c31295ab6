import CMicroHTTPD

/// Takes each request MHD has read, refuses what the server refuses (no
/// token, a body too big), hands the rest to the handler and queues its
/// answer with the headers every response gets. The daemon's C callbacks
/// land here (RequestDispatcher+Callbacks.swift).
///
/// Thread-safe: requests arrive on their connections' threads, connection
/// notices on MHD's polling thread.
final class RequestDispatcher: Sendable {
    /// Fields the server sets on every response; a handler's own of these names are left out.
    private static let serverFields: Set<String> = ["content-type", "cache-control", "x-content-type-options"]

    let limits: HTTPLimits
    let deadlines: RequestDeadlines
    let streams = OpenEventStreams()
    private let handler: any HTTPHandler
    private let token: BearerToken?
    private let openPaths: Set<String>
    private let tls: Bool
    let log: @Sendable (String) -> Void

    init(handler: any HTTPHandler, token: String?, openPaths: Set<String>, tls: Bool, limits: HTTPLimits,
         log: @escaping @Sendable (String) -> Void) {
        self.handler = handler
        self.tls = tls
        self.token = BearerToken(token)
        self.openPaths = openPaths
        self.limits = limits
        self.log = log
        // A second past MHD's own timeout, so that a silent connection (an idle
        // keep-alive) is MHD's to close, quietly: a cut here is always a client
        // that kept sending without finishing.
        deadlines = RequestDeadlines(allowanceSeconds: limits.idleTimeoutSeconds + 1, log: log)
    }

    /// The first access-handler call, once the request line and headers are
    /// in: how the body is taken, or an answer to send before any is read.
    func handling(of request: HTTPRequest, version: String) -> HTTPBodyHandling {
        if let refusal = refusal(before: request, version: version) { return .refuse(refusal) }
        let handling = handler.body(for: request)
        guard case .memory = handling else { return handling }
        // MHD has already answered a Content-Length that is not a number with a 400.
        if let declared = request.headers["content-length"].flatMap({ UInt64($0) }), declared > UInt64(limits.maximumBodyBytes) {
            return .refuse(.text(413, "413 the body is \(declared) bytes; at most \(limits.maximumBodyBytes) are accepted"))
        }
        return .memory
    }

    private func refusal(before request: HTTPRequest, version: String) -> HTTPResponse? {
        // RFC 9112 3.2: a server must answer an HTTP/1.1 request without Host with a 400 (MHD lets it through).
        if version == "HTTP/1.1", request.headers["host"] == nil {
            return .text(400, "400 an HTTP/1.1 request needs a Host field")
        }
        if let token, !(request.method == "GET" && openPaths.contains(request.path)) {
            let verdict = token.check(authorization: request.headers["authorization"])
            if verdict != .accepted { return BearerToken.refusal(verdict) }
        }
        return CrossOrigin.refusal(of: request, tls: tls)
    }

    /// The last access-handler call: the request has arrived whole.
    func answer(_ request: HTTPRequest) -> HTTPResponse {
        let response = handler.respond(to: request)
        guard (200...599).contains(response.status) else {
            log("http \(request.peer): \(request.method) \(request.path): the handler answered status \(response.status)")
            return .text(500, "500 the handler answered with status \(response.status)")
        }
        return response
    }

    /// Queues `response` on the connection. A field MHD refuses turns it
    /// into a 500 that names the field. False when nothing could be queued:
    /// MHD then closes the connection.
    func send(_ response: HTTPResponse, on connection: OpaquePointer, for request: HTTPRequest) -> Bool {
        do {
            try queue(response, on: connection)
            return true
        } catch .headerRefused(let name) {
            log("http \(request.peer): \(request.method) \(request.path): MHD refused the response field '\(name)'")
            do {
                try queue(.text(500, "500 the response field '\(name)' was refused"), on: connection)
                return true
            } catch {
                log("http \(request.peer): \(error)")
                return false
            }
        } catch {
            log("http \(request.peer): \(request.method) \(request.path): \(error)")
            return false
        }
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) throws(ExchangeFailure) {
        let made: Response
        switch response.body {
        case .bytes(let bytes):
            made = try Response(bytes: bytes)
        case .events(let feed):
            let stream = EventStream(feed: feed, keepAlive: .seconds(limits.eventKeepAliveSeconds), registry: streams)
            streams.add(stream)
            made = try Response(stream: stream)
            // MHD checks a connection's silence right after its reader returns,
            // so a reader that waited a whole keep-alive interval must not count
            // as silent: the stream's allowance is the interval plus the usual one.
            let seconds = UInt32(limits.eventKeepAliveSeconds + limits.idleTimeoutSeconds)
            guard marquee_mhd_set_connection_timeout(connection, seconds) == .YES else {
                throw .call("MHD_set_connection_option", "MHD refused the event stream's timeout")
            }
        }
        let fields = [("Content-Type", response.contentType), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")]
            + response.headers.filter { !Self.serverFields.contains($0.0.lowercased()) }
        for (name, value) in fields {
            try made.add(header: name, value: value)
        }
        try made.queue(status: response.status, on: connection)
    }
}
