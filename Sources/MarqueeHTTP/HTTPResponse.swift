/// A handler's answer to one request.
///
/// The server adds `Content-Type` (from `contentType`), `Cache-Control:
/// no-store` and `X-Content-Type-Options: nosniff` to every response, so a
/// field of one of those names in `headers` is left out. MHD adds
/// `Content-Length` or chunked framing and `Date`; a field it refuses
/// (`Content-Length`, a `Transfer-Encoding`, a line break in a value)
/// turns the response into a 500 naming the field.
public struct HTTPResponse: Sendable {
    /// The status code, 200...599; anything else is answered with a 500
    /// that says the handler returned it.
    public var status: Int
    public var contentType: String
    /// More header fields, sent in this order.
    public var headers: [(String, String)]
    public var body: Body

    public enum Body: Sendable {
        /// The whole body, copied into MHD when the response is queued.
        case bytes([UInt8])
        /// A stream of server-sent events, written as the feed produces them
        /// (chunked on HTTP/1.1) until it ends or the client goes away.
        case events(any HTTPEventFeed)
    }

    public init(status: Int, contentType: String, headers: [(String, String)] = [], body: Body) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// A one-line plain-text answer: `line` and a newline, in UTF-8. What a
    /// refusal says ("404 no such route: /nope").
    public static func text(_ status: Int, _ line: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: .bytes(Array((line + "\n").utf8)))
    }

    /// A JSON answer; `text` is sent as given, in UTF-8.
    public static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: .bytes(Array(text.utf8)))
    }

    /// A 200 `text/event-stream` answer fed by `feed`.
    public static func events(_ feed: any HTTPEventFeed) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "text/event-stream", body: .events(feed))
    }
}
