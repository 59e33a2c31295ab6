import MarqueeControl

/// How the media API writes a file of the upload folder: `GET /media`'s
/// objects and the answer to an upload.
enum MediaListing {
    /// - Parameter path: the file's path, as a playlist names it.
    static func json(_ file: MediaFile, path: String, inPlaylist: Bool) -> JSONValue {
        var fields: [String: JSONValue] = [
            "name": .string(file.name.text),
            "path": .string(path),
            "kind": file.probe.kind.map { .string($0.rawValue) } ?? .null,
            "duration": file.probe.duration.map { .number(($0 * 1000).rounded() / 1000) } ?? .null,
            "width": file.probe.width.map { .integer(Int64($0)) } ?? .null,
            "height": file.probe.height.map { .integer(Int64($0)) } ?? .null,
            "bytes": .integer(Int64(file.stamp.bytes)),
            "modified": .string(file.stamp.modifiedTime.rfc3339),
            "inPlaylist": .bool(inPlaylist),
        ]
        if let problem = file.probe.problem { fields["problem"] = .string(problem) }
        return .object(fields)
    }

    /// `name` as one path segment of a URL: bytes outside RFC 3986's
    /// unreserved set percent-encoded.
    static func pathComponent(_ name: MediaName) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        return name.text.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : "%" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }
            .joined()
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
