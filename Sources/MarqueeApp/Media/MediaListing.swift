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
}
