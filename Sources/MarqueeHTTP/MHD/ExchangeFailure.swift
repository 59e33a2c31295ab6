/// Why an answer could not be made or queued on a connection. A connection
/// thread has nobody to throw to, so the dispatcher logs it and answers 500
/// instead, or closes the connection when even that cannot be sent.
enum ExchangeFailure: Error, CustomStringConvertible {
    /// MHD_add_response_header refused a field of the handler's response
    /// (a line break in it, Content-Length, a Transfer-Encoding).
    case headerRefused(String)
    /// An MHD call failed: the function's name and what that means.
    case call(String, String)

    var description: String {
        switch self {
        case .headerRefused(let name): "MHD_add_response_header refused the field '\(name)'"
        case .call(let call, let meaning): "\(call): \(meaning)"
        }
    }
}
