import FoundationEssentials
import Glibc

/// Turns `[playback] playlist` entries into the items to play: URLs as
/// they are, folders as their files, globs as their matches (each sorted
/// by name), plain paths as they are. Relative entries are taken from the
/// configuration file's folder, so a file and its media can move together.
/// An entry's picture duration goes with each item it gives.
///
/// Reads the file system when called; call it off real-time threads.
public enum PlaylistResolver {
    public struct Item: Sendable, Equatable {
        /// A path or URL.
        public var source: String
        /// The entry's picture duration (nil: `image_duration`).
        public var duration: Double?
        /// The entry's `captions` file, absolute.
        public var captions: String?

        public init(source: String, duration: Double? = nil, captions: String? = nil) {
            self.source = source
            self.duration = duration
            self.captions = captions
        }
    }

    public struct Resolution: Sendable, Equatable {
        /// In play order.
        public var items: [Item] = []
        /// Entries that gave nothing (an empty folder, a glob without
        /// matches, a missing file). Not errors: media may be mounted later.
        public var warnings: [String] = []
    }

    /// - Parameters:
    ///   - entries: as written in the file.
    ///   - base: the folder relative entries start from (nil: the current directory).
    public static func resolve(_ entries: [PlaylistEntry], relativeTo base: String?) -> Resolution {
        var resolution = Resolution()
        for written in entries {
            let entry = written.path
            let captions = written.captions.map { absolute($0, base: base) }
            let items = { (sources: [String]) in
                resolution.items += sources.map { Item(source: $0, duration: written.duration, captions: captions) }
            }
            if isURL(entry) {
                items([entry])
                continue
            }
            let path = absolute(entry, base: base)
            if entry.contains(where: { "*?[".contains($0) }) {
                switch glob(path) {
                case .success(let matches) where !matches.isEmpty: items(matches)
                case .success: resolution.warnings.append("'\(entry)' matches no file")
                case .failure(let reason): resolution.warnings.append("'\(entry)': \(reason)")
                }
                continue
            }
            var isDirectory = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
                let files = filesIn(path)
                if files.isEmpty { resolution.warnings.append("folder '\(entry)' has no files") }
                items(files)
            } else {
                if !FileManager.default.fileExists(atPath: path) { resolution.warnings.append("'\(entry)' does not exist") }
                items([path])
            }
        }
        return resolution
    }

    static func isURL(_ entry: String) -> Bool {
        guard let range = entry.firstRange(of: "://") else { return false }
        let scheme = entry[..<range.lowerBound]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    /// `entry` made absolute against `base` (a relative entry with no base stays as it is).
    public static func absolute(_ entry: String, base: String?) -> String {
        guard !entry.hasPrefix("/"), let base, !base.isEmpty else { return entry }
        return URL(fileURLWithPath: base).appendingPathComponent(entry).path
    }

    /// Subtitle files: shown over the video they are named for, not played.
    static let captionExtensions: Set<String> = ["srt", "vtt", "ass", "ssa"]

    /// Regular, non-hidden files directly in `folder` but subtitles, sorted by name.
    private static func filesIn(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") && !captionExtensions.contains(String($0.split(separator: ".").last ?? "").lowercased()) }
            .sorted().map { "\(folder)/\($0)" }.filter { path in
            var isDirectory = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory
        }
    }

    enum GlobResult {
        case success([String])
        case failure(String)
    }

    private static func glob(_ pattern: String) -> GlobResult {
        var matches = glob_t()
        defer { globfree(&matches) }
        switch Glibc.glob(pattern, 0, nil, &matches) {
        case 0:
            let paths = (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }
            return .success(paths.sorted())
        case GLOB_NOMATCH: return .success([])
        case GLOB_NOSPACE: return .failure("glob: out of memory")
        default: return .failure("glob: cannot read a folder")
        }
    }
}
