/// The check of `Authorization: Bearer <token>` (RFC 6750) against the
/// configured token. The comparison takes the same time whatever the
/// offered token holds, so timing does not tell a client how much of a
/// guess was right.
struct BearerToken: Sendable {
    private let expected: [UInt8]

    /// nil when `token` is nil or empty: no check.
    init?(_ token: String?) {
        guard let token, !token.isEmpty else { return nil }
        expected = Array(token.utf8)
    }

    enum Verdict: Equatable {
        case accepted
        /// No Authorization field, or one of another scheme.
        case missing
        case wrong
    }

    /// - Parameter authorization: the Authorization field's value, if any.
    func check(authorization: String?) -> Verdict {
        guard let authorization else { return .missing }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        // The scheme is case-insensitive (RFC 9110 11.1).
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .missing }
        let offered = Array(parts[1].trimmingPrefix(while: { $0 == " " }).utf8)
        // Every byte of the expected token is compared, however early a
        // mismatch comes; the offered length only sets a flag.
        var difference: UInt8 = offered.count == expected.count ? 0 : 1
        for index in expected.indices {
            difference |= expected[index] ^ (index < offered.count ? offered[index] : 0)
        }
        return difference == 0 ? .accepted : .wrong
    }

    /// The 401 for a verdict other than `.accepted`, with the challenge
    /// (`WWW-Authenticate`) that tells a client which scheme to use.
    static func refusal(_ verdict: Verdict) -> HTTPResponse {
        var response: HTTPResponse
        switch verdict {
        case .wrong:
            response = .text(401, "401 the bearer token is wrong")
            response.headers = [("WWW-Authenticate", "Bearer error=\"invalid_token\"")]
        default:
            response = .text(401, "401 a bearer token is needed (Authorization: Bearer TOKEN)")
            response.headers = [("WWW-Authenticate", "Bearer")]
        }
        return response
    }
}
