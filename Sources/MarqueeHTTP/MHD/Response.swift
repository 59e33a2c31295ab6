import CMicroHTTPD

/// One MHD_Response, destroyed with this object. MHD counts a reference of
/// its own while the response is queued on a connection, so this owner may
/// go as soon as `queue` has returned. Used on one connection thread.
final class Response {
    private let response: OpaquePointer

    /// A response of `bytes`, copied into MHD (.RESPMEM_MUST_COPY), so the
    /// array need not outlive this call.
    init(bytes: [UInt8]) throws(ExchangeFailure) {
        let made = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made else { throw .call("MHD_create_response_from_buffer", "out of memory") }
        response = made
    }

    /// A response of unknown length that `stream` produces as MHD asks for
    /// it (chunked on HTTP/1.1, until the connection closes on HTTP/1.0).
    /// MHD holds the stream, retained, until it destroys the response, and
    /// the stream ends then; if MHD cannot make the response it ends now.
    init(stream: EventStream) throws(ExchangeFailure) {
        let context = Unmanaged.passRetained(stream).toOpaque()
        // MHD_SIZE_UNKNOWN is ((uint64_t) -1), a macro Swift does not import.
        let unknownSize = UInt64.max
        guard let made = MHD_create_response_from_callback(unknownSize, EventStream.blockBytes, EventStream.reader, context,
                                                           EventStream.release) else {
            Unmanaged<EventStream>.fromOpaque(context).release()
            stream.end()
            throw .call("MHD_create_response_from_callback", "out of memory")
        }
        response = made
    }

    deinit { MHD_destroy_response(response) }

    func add(header name: String, value: String) throws(ExchangeFailure) {
        guard MHD_add_response_header(response, name, value) == .YES else { throw .headerRefused(name) }
    }

    /// Queues the response as the connection's answer: MHD sends it once
    /// the access handler returns.
    func queue(status: Int, on connection: OpaquePointer) throws(ExchangeFailure) {
        guard MHD_queue_response(connection, UInt32(status), response) == .YES else {
            throw .call("MHD_queue_response", "MHD refused status \(status) on this connection")
        }
    }
}
