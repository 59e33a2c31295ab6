import FoundationEssentials
import Glibc
import MarqueeConfig
import MarqueeControl

/// The folders a playlist sent over a control channel may name files in
/// (`[playback] media_roots`). A path is allowed when, with `..` and every
/// symbolic link resolved (realpath), it is a root or inside one; URLs only
/// of the network schemes the player streams (a `file:`, `concat:` or
/// `subfile:` URL would read files libavformat's way, outside the roots).
struct MediaRoots: Sendable {
    static let schemes = ["http", "https", "rtsp", "rtsps", "rtmp", "srt", "udp", "rtp"]

    /// The roots, each resolved once; a root that does not exist (yet) is left out.
    let roots: [String]

    init(_ configured: [String], relativeTo base: String?) {
        roots = configured.compactMap { Self.resolve(PlaylistResolver.absolute($0, base: base)) }
    }

    /// The entry's path made absolute (relative to the first root) and
    /// checked; the reason it is refused otherwise.
    func confine(_ entry: PlaylistEntry) -> Result<PlaylistEntry, ControlError> {
        let path = entry.path
        if let colon = path.firstIndex(of: ":"), !path.hasPrefix("/"), path[..<colon].allSatisfy({ $0.isLetter || $0 == "+" }) {
            let scheme = path[..<colon].lowercased()
            guard Self.schemes.contains(scheme) else {
                return .failure(ControlError("'\(path.prefix(80))': only \(Self.schemes.joined(separator: ", ")) URLs, not \(scheme):"))
            }
            return .success(entry)
        }
        guard let first = roots.first else {
            return .failure(ControlError("no [playback] media_roots are set (or none exists), so no file can be named"))
        }
        do throws(ControlError) {
            let real = try inside(path, first).get()
            let captions = try entry.captions.map { (file) throws(ControlError) in try inside(file, first).get() }
            return .success(PlaylistEntry(path: real, duration: entry.duration, captions: captions))
        } catch {
            return .failure(error)
        }
    }

    /// `path` made absolute from `base`, its links followed, if it is inside a root.
    private func inside(_ path: String, _ base: String) -> Result<String, ControlError> {
        guard let real = Self.resolve(PlaylistResolver.absolute(path, base: base)) else { return .failure(ControlError("'\(path.prefix(200))': no such file or folder")) }
        guard roots.contains(where: { real == $0 || real.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
            return .failure(ControlError("'\(path.prefix(200))' is outside the media roots (\(roots.joined(separator: ", ")))"))
        }
        return .success(real)
    }

    private static func resolve(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}

extension MediaRoots {
    /// A sent schedule with its named playlists' entries confined; the
    /// first refused entry's reason (naming the playlist and the entry)
    /// otherwise.
    func confine(_ document: ScheduleDocument) -> Result<ScheduleDocument, ControlError> {
        var confined = document
        for (number, playlist) in document.playlists.enumerated() {
            for (index, entry) in playlist.items.enumerated() {
                switch confine(entry) {
                case .success(let checked): confined.playlists[number].items[index] = checked
                case .failure(let error): return .failure(ControlError("playlists.\(playlist.name).items[\(index)]: \(error.message)"))
                }
            }
        }
        return .success(confined)
    }
}
