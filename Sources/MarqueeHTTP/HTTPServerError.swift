/// Why an HTTP server did not start: a C call that failed (MHD's own
/// reason with it), or a value that cannot work (a listen address that does
/// not parse, a limit out of range), saying what was expected.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed ("MHD_start_daemon"), or nil when a value was refused.
    public let call: String?
    /// What was being started or read: the listen address ("0.0.0.0:80",
    /// "[::1]:8080") or the refused value.
    public let subject: String
    /// Why, in words: MHD's messages, or what is wrong and what form is expected.
    public let reason: String

    /// A failed call while starting the server at `listen`.
    public init(call: String, listen: String, reason: String) {
        self.call = call
        subject = listen
        self.reason = reason
    }

    /// A refused value.
    public init(value: String, reason: String) {
        call = nil
        subject = value
        self.reason = reason
    }

    /// `http 127.0.0.1:8080: MHD_start_daemon: Failed to bind to port 8080: Address already in use`,
    /// `http: listen address '8080': expected HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080`.
    public var description: String {
        guard let call else { return "http: \(subject): \(reason)" }
        return "http \(subject): \(call): \(reason)"
    }
}
