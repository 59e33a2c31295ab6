import FoundationEssentials

/// Subtitle files beside a video and named for it, as players find them:
/// `NAME.srt`, `NAME.vtt`, `NAME.ass` (`.ssa`), and the same with a
/// language between (`NAME.de.srt`).
enum SidecarFiles {
    static let extensions: Set<String> = ["srt", "vtt", "ass", "ssa"]

    /// The files for the video at `path`, the one without a language first, then by name.
    static func named(for path: String) -> [String] {
        let (folder, stem, _) = split(path)
        guard !stem.isEmpty, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return [] }
        let matching = names.filter { name in
            guard name.hasPrefix(stem + ".") else { return false }
            // NAME.EXT or NAME.LANG.EXT
            let parts = name.dropFirst(stem.count + 1).split(separator: ".", omittingEmptySubsequences: false)
            return parts.count <= 2 && extensions.contains(parts[parts.count - 1].lowercased())
        }
        return matching.sorted { ($0.count, $0) < ($1.count, $1) }.map { folder.isEmpty ? $0 : "\(folder)/\($0)" }
    }

    /// The language a sidecar's name gives (`NAME.de.srt`: "de"); nil for `NAME.srt` or another name.
    static func language(of file: String, for video: String) -> String? {
        let name = split(file).name, stem = split(video).stem
        guard name.hasPrefix(stem + ".") else { return nil }
        let parts = name.dropFirst(stem.count + 1).split(separator: ".")
        return parts.count == 2 ? String(parts[0]) : nil
    }

    private static func split(_ path: String) -> (folder: String, stem: String, name: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        return (folder, stem, name)
    }
}
