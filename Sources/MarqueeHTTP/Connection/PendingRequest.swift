/// A request between its headers and its handler call: what MHD read of
/// it, and its body as MHD hands it over one piece per access-handler call.
/// Retained through MHD's per-request pointer (`con_cls`) from the first
/// call until MHD reports the request completed. Used on the connection's
/// thread only.
final class PendingRequest {
    private(set) var request: HTTPRequest
    private let maximumBodyBytes: Int

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
}
