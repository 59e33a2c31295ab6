import CMicroHTTPD

/// The C callbacks MHD calls for the dispatcher (its `cls`, unretained: the
/// daemon's owner holds the dispatcher until MHD_stop_daemon has returned).
extension RequestDispatcher {
    /// MHD_AccessHandlerCallback. MHD calls it once with the headers read
    /// (`*context` still NULL), once per piece of body with the piece in
    /// `upload`/`size`, and once more with `*size` 0 when the request is
    /// whole; an answer can be queued only in the first call or the last.
    static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, upload, size, context in
        guard let cls, let connection, let url, let method, let size, let context else { return .NO }
        let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()
        return dispatcher.access(connection, url: url, method: method, version: version.map { String(cString: $0) } ?? "",
                                 upload: upload, size: size, context: context) ? .YES : .NO
    }

    /// MHD_RequestCompletedCallback: the request is over, answered or not.
    static let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, context, _ in
        guard let cls, let connection else { return }
        if let context, let pending = context.pointee {
            Unmanaged<PendingRequest>.fromOpaque(pending).release()
            context.pointee = nil
        }
        Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue().deadlines.responseEnded(Int(bitPattern: connection))
    }

    /// MHD_NotifyConnectionCallback: a connection was accepted (on MHD's
    /// polling thread, before its own thread starts) or is about to be closed.
    static let connectionChanged: MHD_NotifyConnectionCallback = { cls, connection, _, code in
        guard let cls, let connection else { return }
        let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()
        switch code {
        case .CONNECTION_NOTIFY_STARTED:
            guard let descriptor = marquee_mhd_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd else {
                // Only MHD's own timeout then bounds this connection.
                dispatcher.log("http \(peer(of: connection)): MHD_get_connection_info gave no descriptor; no request deadline")
                return
            }
            dispatcher.deadlines.opened(Int(bitPattern: connection), descriptor: descriptor, peer: peer(of: connection))
        case .CONNECTION_NOTIFY_CLOSED:
            dispatcher.deadlines.closed(Int(bitPattern: connection))
        @unknown default:
            return
        }
    }

    private func access(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, version: String,
                        upload: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
                        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Bool {
        guard let stored = context.pointee else {
            let request = HTTPRequest(method: String(cString: method), path: String(cString: url),
                                      query: Dictionary(Self.values(of: connection, kind: .GET_ARGUMENT_KIND), uniquingKeysWith: { $1 }),
                                      headers: Self.headers(of: connection), peer: Self.peer(of: connection))
            let pending = PendingRequest(request, maximumBodyBytes: limits.maximumBodyBytes)
            context.pointee = Unmanaged.passRetained(pending).toOpaque()
            switch handling(of: request, version: version) {
            case .memory: return true
            case .stream(let sink):
                pending.sink = sink
                return true
            case .refuse(let refusal): return send(refusal, on: connection, for: request)
            }
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(stored).takeUnretainedValue()
        if size.pointee > 0 {
            guard let upload else { return false }
            let piece = UnsafeRawBufferPointer(start: upload, count: size.pointee)
            if let sink = pending.sink {
                guard sink.write(piece) else {
                    log("http \(pending.request.peer): \(pending.request.method) \(pending.request.path): the body is past what is accepted; connection closed")
                    return false
                }
                if pending.progressed(by: piece.count) { deadlines.bodyProgressed(Int(bitPattern: connection)) }
            } else {
                guard pending.append(piece) else {
                    let request = pending.request
                    log("http \(request.peer): \(request.method) \(request.path): chunked body past \(limits.maximumBodyBytes) bytes; connection closed")
                    return false
                }
            }
            size.pointee = 0
            return true
        }
        deadlines.requestArrived(Int(bitPattern: connection))
        let response = pending.sink.map { $0.finish() } ?? answer(pending.request)
        pending.sink = nil
        return send(response, on: connection, for: pending.request)
    }

    /// Header fields by lowercased name, repeated ones joined by ", ".
    private static func headers(of connection: OpaquePointer) -> [String: String] {
        Dictionary(values(of: connection, kind: .HEADER_KIND).map { ($0.lowercased(), $1) }, uniquingKeysWith: { "\($0), \($1)" })
    }

    /// The connection's values of one kind, in the order MHD read them; a
    /// key without a value (a query's "?flag") has "".
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(String, String)] {
        var pairs: [(String, String)] = []
        // The result is the number of values, or -1 for a NULL connection.
        _ = withUnsafeMutablePointer(to: &pairs) { pointer in
            MHD_get_connection_values(connection, kind, { cls, _, key, value in
                guard let cls, let key else { return .YES }
                cls.assumingMemoryBound(to: [(String, String)].self).pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                return .YES
            }, pointer)
        }
        return pairs
    }

    private static func peer(of connection: OpaquePointer) -> String {
        guard let address = marquee_mhd_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr else { return "?" }
        return SocketAddress.text(of: address)
    }
}
