/// The two path edits the player needs, on POSIX path strings, as
/// NSString's `lastPathComponent` and `deletingLastPathComponent` do them
/// (trailing slashes ignored, the root kept) without touching the file
/// system or resolving a relative path against the current folder, as URL
/// would.
public enum PathText {
    /// "/a/b.mp4" -> "b.mp4", "/a/b/" -> "b", "/" -> "/", "a" -> "a".
    public static func lastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// "/a/b.mp4" -> "/a", "/a" -> "/", "a/b" -> "a", "a" -> "", "/" -> "/".
    public static func deletingLastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let folder = trimmingTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
