/// Refuses a browser's request that would change something when a page of
/// another origin sent it (cross-site request forgery). A page anywhere on
/// the web can make a visitor's browser POST a form or a text body to a
/// loopback or LAN address without asking it first; the browser then says
/// where the request comes from in `Origin` (and `Sec-Fetch-Site`), which
/// the page cannot forge. Programs other than browsers send neither field
/// and are not concerned.
enum CrossOrigin {
    /// Methods that change nothing, which any page may send.
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS"]

    /// A 403 naming the origin, or nil for a request the server may take.
    static func refusal(of request: HTTPRequest, tls: Bool) -> HTTPResponse? {
        guard !safeMethods.contains(request.method) else { return nil }
        if let site = request.headers["sec-fetch-site"], site == "cross-site" || site == "same-site" {
            return .text(403, "403 \(request.method) \(request.path.prefix(200)) from a page of another site (Sec-Fetch-Site: \(site)) is refused")
        }
        guard let origin = request.headers["origin"] else { return nil }
        guard let host = request.headers["host"], sameOrigin(origin, host: host, tls: tls) else {
            return .text(403, "403 \(request.method) \(request.path.prefix(200)) from a page of origin \(origin.prefix(200)) is refused; only this server's own pages may change things")
        }
        return nil
    }

    /// Whether `origin` ("http://127.0.0.1:8080") is this server as the
    /// request's `Host` ("127.0.0.1:8080") names it, the scheme's default
    /// port written or not.
    static func sameOrigin(_ origin: String, host: String, tls: Bool) -> Bool {
        let scheme = tls ? "https" : "http"
        guard origin.lowercased().hasPrefix("\(scheme)://") else { return false }
        let defaultPort = tls ? ":443" : ":80"
        func normalised(_ authority: Substring) -> String {
            let lowered = authority.lowercased()
            return lowered.hasSuffix(defaultPort) ? String(lowered.dropLast(defaultPort.count)) : lowered
        }
        return normalised(origin.dropFirst(scheme.count + 3)) == normalised(host[...])
    }
}
