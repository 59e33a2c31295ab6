import FoundationEssentials
import Glibc
import MarqueeCore

/// The folders whose contents decide a playlist: each folder entry, the
/// folder(s) of each glob, and each entry without an extension that does
/// not exist yet (a USB stick not mounted, a folder not made), which is
/// waited for. URLs and files are not watched; a missing `intro.mp4` is a
/// file, which fails as an item with its own line.
struct WatchTargets: Equatable {
    /// Normalized absolute paths, in entry order, without repeats.
    var folders: [String] = []

    init(entries: [String], relativeTo base: String?) {
        for entry in entries where !PlaylistResolver.isURL(entry) {
            let path = Self.normalized(PlaylistResolver.absolute(entry, base: base))
            if entry.contains(where: Self.isGlobCharacter) {
                add(Self.globFolders(path))
            } else if Self.isFolder(path) || (!FileManager.default.fileExists(atPath: path) && !Self.hasExtension(path)) {
                add([path])
            }
        }
    }

    var isEmpty: Bool { folders.isEmpty }

    /// Whether `path` (normalized) is a target, or a folder on the way to one.
    func leadsToTarget(_ path: String) -> Bool {
        folders.contains { $0 == path || $0.hasPrefix(path + "/") }
    }

    /// Whether `path` (normalized) is a target that does not exist yet.
    func awaits(_ path: String) -> Bool {
        folders.contains(path) && !FileManager.default.fileExists(atPath: path)
    }

    /// Where each target is watched from: itself when it is a folder, else its
    /// nearest folder that exists, which is watched until the target appears.
    var watchedFolders: Set<String> {
        Set(folders.map { target in
            var folder = target
            while !Self.isFolder(folder), folder != "/", !folder.isEmpty { folder = PathText.deletingLastComponent(folder) }
            // A relative path climbs to nothing: the current folder is its parent.
            return folder.isEmpty ? "." : folder
        })
    }

    private mutating func add(_ paths: [String]) {
        for path in paths where !folders.contains(path) { folders.append(path) }
    }

    static func isGlobCharacter(_ character: Character) -> Bool { "*?[".contains(character) }

    private static func hasExtension(_ path: String) -> Bool {
        PathText.lastComponent(path).dropFirst().contains(".")
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }

    /// A glob's folder; when the folder part has wildcards itself, the
    /// folder before the first one (where matching folders appear) and the
    /// folders that match now.
    private static func globFolders(_ pattern: String) -> [String] {
        let folder = PathText.deletingLastComponent(pattern)
        guard folder.contains(where: isGlobCharacter) else { return [folder] }
        let components = folder.split(separator: "/", omittingEmptySubsequences: false)
        let literal = components.prefix { !$0.contains(where: isGlobCharacter) }.joined(separator: "/")
        var matches = glob_t()
        defer { globfree(&matches) }
        var found: [String] = []
        if Glibc.glob(folder, GLOB_ONLYDIR, nil, &matches) == 0 {
            found = (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { normalized(String(cString: $0)) } }
        }
        return [literal.isEmpty ? "/" : literal] + found.sorted()
    }

    /// `path` without empty or `.` components and without a trailing slash,
    /// so the resolver's items and the watch's events name a file the same way.
    static func normalized(_ path: String) -> String {
        let components = path.split(separator: "/").filter { $0 != "." }
        return (path.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
    }
}
