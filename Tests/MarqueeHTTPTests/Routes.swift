import MarqueeHTTP
import Synchronization

/// The handler the tests serve: a few routes shaped like the control API's,
/// and a record of the requests that reached it.
final class Routes: HTTPHandler {
    /// The feed `GET /events` streams; each request takes the next one.
    private let feeds: Mutex<[any HTTPEventFeed]>
    let received = Mutex<[HTTPRequest]>([])

    init(feeds: [any HTTPEventFeed] = []) {
        self.feeds = Mutex(feeds)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        received.withLock { $0.append(request) }
        switch (request.method, request.path) {
        case ("GET", "/status"):
            return .json(200, #"{"state":"playing"}"#)
        case ("POST", "/command"), ("PUT", "/playlist"):
            // The body's size and a checksum, so a test can tell it arrived whole.
            let sum = request.body.reduce(UInt32(0)) { $0 &* 31 &+ UInt32($1) }
            return .text(200, "\(request.body.count) \(sum)")
        case ("GET", "/events"):
            guard let feed = feeds.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return .text(503, "503 no feed") }
            return .events(feed)
        case ("GET", "/echo"):
            let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return .text(200, "\(request.peer) \(query) \(request.headers["x-marquee"] ?? "-")")
        case ("GET", "/refused-field"):
            var response = HTTPResponse.text(200, "ok")
            response.headers = [("X-Broken", "one\r\ntwo")]
            return response
        default:
            return .text(404, "404 no such route: \(request.method) \(request.path)")
        }
    }
}
