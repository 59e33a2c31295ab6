/// What one client may cost the server. Each bound ends in a refusal or a
/// cut connection, never in a thread or memory held without end.
public struct HTTPLimits: Sendable, Equatable {
    /// Bytes of request body. A request whose Content-Length says more gets a
    /// 413 before any of its body is read; a chunked body that grows past it
    /// has its connection closed (MHD can answer only before a body or after
    /// all of it, and reading the rest is what this limit refuses).
    public var maximumBodyBytes: Int
    /// Bytes of memory per connection (MHD_OPTION_CONNECTION_MEMORY_LIMIT),
    /// which holds the request line, the header fields and MHD's buffers: a
    /// request whose headers do not fit gets MHD's 431, a request line that
    /// does not fit its 414.
    public var maximumHeaderBytes: Int
    /// Connections open at once, each on a thread of its own
    /// (MHD_OPTION_CONNECTION_LIMIT). MHD accepts a further one and closes it
    /// at once (the client sees a reset).
    public var connections: Int
    /// Connections open at once from one client address
    /// (MHD_OPTION_PER_IP_CONNECTION_LIMIT); a further one is closed as soon
    /// as it is accepted.
    public var connectionsPerAddress: Int
    /// Seconds a connection may stay silent (MHD_OPTION_CONNECTION_TIMEOUT).
    /// A request must also arrive whole within a second more, counted from
    /// the connection's start or the end of its previous response, so a
    /// client sending a byte a second is cut as surely as a silent one.
    public var idleTimeoutSeconds: Int
    /// Seconds between ": keep-alive" comments on an event stream that has
    /// no events. It is also how long a client that went away can hold its
    /// stream's thread before a write finds out.
    public var eventKeepAliveSeconds: Int

    public init(maximumBodyBytes: Int = 1 << 20, maximumHeaderBytes: Int = 32 << 10, connections: Int = 16,
                connectionsPerAddress: Int = 8, idleTimeoutSeconds: Int = 10, eventKeepAliveSeconds: Int = 15) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.connections = connections
        self.connectionsPerAddress = connectionsPerAddress
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.eventKeepAliveSeconds = eventKeepAliveSeconds
    }

    /// The first limit that cannot work, as "limits.NAME must be ...", or nil.
    func problem() -> String? {
        // Below a few KiB MHD cannot hold a request line and its own buffers.
        let minimumMemory = 4 << 10
        let checks: [(name: String, value: Int, minimum: Int)] = [
            ("maximumBodyBytes", maximumBodyBytes, 0),
            ("maximumHeaderBytes", maximumHeaderBytes, minimumMemory),
            ("connections", connections, 1),
            ("connectionsPerAddress", connectionsPerAddress, 1),
            ("idleTimeoutSeconds", idleTimeoutSeconds, 1),
            ("eventKeepAliveSeconds", eventKeepAliveSeconds, 1),
        ]
        guard let bad = checks.first(where: { $0.value < $0.minimum || $0.value > Int(UInt32.max) }) else { return nil }
        return "limits.\(bad.name) must be \(bad.minimum) to \(UInt32.max), not \(bad.value)"
    }
}
