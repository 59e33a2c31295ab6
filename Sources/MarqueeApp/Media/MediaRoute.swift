/// Which media route a request path names: `/media`, `/media/NAME` or
/// `/media/NAME/thumbnail.png` (the path as MHD decoded it).
enum MediaRoute {
    case list
    case file(String)
    case thumbnail(String)

    static let prefix = "/media/"
    static let thumbnailSuffix = "/thumbnail.png"

    /// nil for a path outside `/media`.
    init?(_ path: String) {
        if path == "/media" {
            self = .list
        } else if path.hasPrefix(Self.prefix) {
            let rest = String(path.dropFirst(Self.prefix.count))
            if rest.hasSuffix(Self.thumbnailSuffix), !rest.dropLast(Self.thumbnailSuffix.count).contains("/") {
                self = .thumbnail(String(rest.dropLast(Self.thumbnailSuffix.count)))
            } else {
                self = .file(rest)
            }
        } else {
            return nil
        }
    }

    var methods: [String] {
        switch self {
        case .list, .thumbnail: ["GET"]
        case .file: ["PUT", "DELETE"]
        }
    }
}
