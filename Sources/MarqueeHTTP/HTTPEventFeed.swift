/// The events behind one server-sent-events response (`GET /events`): the
/// connection's thread calls `next(timeout:)` and writes what it returns.
///
/// Threading: `next` is called on the connection's thread only, one call at
/// a time, and may block for up to `timeout`. `close()` is called once, when
/// the stream ends for any reason (`next` returned `.end`, the client went
/// away, the response was never sent, the server stops), so the producer can
/// drop the feed. It may come from another thread while `next` is blocked
/// (from `HTTPServer.stop()`, which waits for the connection): that `next`
/// must then return `.end` promptly, and later calls too.
public protocol HTTPEventFeed: AnyObject, Sendable {
    /// The next event, or `.idle` when none came within `timeout`, or `.end`.
    func next(timeout: Duration) -> EventFeedResult
    func close()
}

/// What one `HTTPEventFeed.next(timeout:)` gives the connection to write.
public enum EventFeedResult: Sendable, Equatable {
    /// Bytes already framed as server-sent events ("data: ...\n\n").
    case data([UInt8])
    /// Nothing within the timeout: the server writes a ": keep-alive\n\n"
    /// comment, which keeps proxies from closing the stream and finds out
    /// whether the client is still there.
    case idle
    /// The stream is over; the response ends.
    case end

    /// `text` framed as one event: a "data: " line per line of `text`, then a
    /// blank line (a bare newline inside one data line would end the event).
    public static func event(_ text: String) -> EventFeedResult {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return .data(Array((lines.map { "data: \($0)\n" }.joined() + "\n").utf8))
    }
}
