import MarqueeCore

/// Reads HTTP/1.1 answers off a connection: a head (status line and
/// fields), then a body framed by Content-Length, chunked, or the end of
/// the connection.
struct ResponseReader {
    /// Bytes of a head, at most: anything longer is not an answer from the player.
    static let longestHead = 64 << 10

    let connection: ClientConnection
    let url: String
    private var pending: [UInt8] = []
    private var ended = false

    init(connection: ClientConnection, url: String) {
        self.connection = connection
        self.url = url
    }

    struct Head {
        let status: Int
        let headers: [String: String]
    }

    mutating func head() throws(HTTPClientError) -> Head {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = pending.firstRange(of: separator) {
                let text = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<end.upperBound)
                return try parse(text)
            }
            guard pending.count <= Self.longestHead else { throw failure("an answer head of over \(Self.longestHead) bytes") }
            guard try fill() else { throw failure(pending.isEmpty ? "the server closed the connection without an answer" : "the answer ended in its head") }
        }
    }

    mutating func body(after head: Head) throws(HTTPClientError) -> HTTPClientResponse {
        var body: [UInt8] = []
        if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            while true {
                let sizeLine = try line()
                guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else { throw failure("a chunk size '\(sizeLine.prefix(20))'") }
                if size == 0 { break }
                try need(size + 2)
                body += pending[..<size]
                pending.removeSubrange(..<(size + 2))
            }
        } else if let length = head.headers["content-length"].flatMap(Int.init) {
            try need(length)
            body = Array(pending[..<length])
        } else {
            while try fill() {}
            body = pending
        }
        return HTTPClientResponse(status: head.status, headers: head.headers, body: body)
    }

    private func parse(_ text: String) throws(HTTPClientError) -> Head {
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw failure("not an HTTP answer: '\(lines.first?.prefix(40) ?? "")'")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingSpaces
        }
        return Head(status: status, headers: headers)
    }

    private mutating func line() throws(HTTPClientError) -> String {
        while true {
            if let end = pending.firstRange(of: Array("\r\n".utf8)) {
                let text = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<end.upperBound)
                return text
            }
            guard try fill() else { throw failure("the answer ended inside a chunk size") }
        }
    }

    private mutating func need(_ count: Int) throws(HTTPClientError) {
        while pending.count < count {
            guard try fill() else { throw failure("the answer ended \(count - pending.count) bytes short") }
        }
    }

    /// Reads more; false at the end of the connection.
    private mutating func fill() throws(HTTPClientError) -> Bool {
        guard !ended else { return false }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let count = try connection.receive(into: &buffer)
        if count == 0 {
            ended = true
            return false
        }
        pending += buffer[..<count]
        return true
    }

    private func failure(_ reason: String) -> HTTPClientError { HTTPClientError(url: url, reason: reason) }
}
