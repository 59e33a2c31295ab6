/// A request between its headers and its handler call: what MHD read of
/// it, and its body as MHD hands it over one piece per access-handler call,
/// held in memory or passed to the handler's sink. Retained through MHD's
/// per-request pointer (`con_cls`) from the first call until MHD reports
/// the request completed, so a sink whose body never arrived whole is
/// released there. Used on the connection's thread only.
final class PendingRequest {
    /// Body bytes that must arrive to move a streamed body's deadline on: a
    /// client trickling a few bytes at a time cannot keep its connection.
    static let progressBytes = 64 << 10

    private(set) var request: HTTPRequest
    private let maximumBodyBytes: Int
    var sink: (any HTTPBodySink)?
    /// Streamed bytes since the deadline last moved.
    private var unmarkedBytes = 0

    init(_ request: HTTPRequest, maximumBodyBytes: Int) {
        self.request = request
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Adds a piece of the body; false, adding nothing, when it would pass
    /// the limit.
    func append(_ piece: UnsafeRawBufferPointer) -> Bool {
        guard piece.count <= maximumBodyBytes - request.body.count else { return false }
        request.body.append(contentsOf: piece)
        return true
    }

    /// Counts streamed bytes; true when another `progressBytes` have come.
    func progressed(by count: Int) -> Bool {
        unmarkedBytes += count
        guard unmarkedBytes >= Self.progressBytes else { return false }
        unmarkedBytes = 0
        return true
    }
}
