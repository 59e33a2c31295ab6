/// Where the body of a request goes when it is too big to hold in memory
/// (an upload): each piece as it arrives, then `finish()` for the answer.
///
/// Threading: called on the request's connection thread only, in order.
/// A sink released without `finish()` having been called is an abandoned
/// body (the client went away, the connection was cut, the server stopped):
/// its owner's `deinit` undoes what it began, a partial file included.
public protocol HTTPBodySink: AnyObject {
    /// Takes the next piece of the body. False when the body is past what
    /// the sink accepts: the server then closes the connection without an
    /// answer (MHD can answer only before a body or after all of it).
    func write(_ piece: UnsafeRawBufferPointer) -> Bool
    /// The body has arrived whole: the answer to the request.
    func finish() -> HTTPResponse
}

/// How a handler takes a request's body, decided once its header fields
/// are in (`HTTPHandler.body(for:)`).
public enum HTTPBodyHandling {
    /// Whole, in `HTTPRequest.body`, up to `HTTPLimits.maximumBodyBytes`.
    case memory
    /// Piece by piece into the sink, with no limit but the sink's own.
    case stream(any HTTPBodySink)
    /// Answered at once, before any of the body is read.
    case refuse(HTTPResponse)
}
