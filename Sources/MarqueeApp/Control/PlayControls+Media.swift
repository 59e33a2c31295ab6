import Glibc
import MarqueeConfig
import MarqueeControl

/// What the media routes ask of the playlist: whether it uses a file, and
/// taking a deleted file out of it.
extension PlayControls {
    /// The default playlist's entries as absolute paths, links resolved
    /// where the file exists (URLs as they are).
    func playlistPaths() -> [String] {
        let entries = state.withLock { $0.applied.playback.playlist }
        let base = PlaylistLoader.base(configPath)
        return entries.map { Self.resolved(PlaylistResolver.absolute($0.path, base: base)) }
    }

    /// Whether one of `paths` is the file at `path` or a folder that holds it.
    static func uses(_ path: String, in paths: [String]) -> Bool {
        paths.contains { $0 == path || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    /// Saves the default playlist without its entries naming the file at
    /// `path`, as `PUT /playlist` would; a summary, or nil when none named it.
    func removeFromPlaylist(_ path: String) -> Result<String?, PlaylistRefusal> {
        let entries = state.withLock { $0.applied.playback.playlist }
        let base = PlaylistLoader.base(configPath)
        let absolute = entries.map {
            PlaylistEntry(path: PlaylistResolver.absolute($0.path, base: base), duration: $0.duration,
                          captions: $0.captions.map { PlaylistResolver.absolute($0, base: base) })
        }
        let kept = absolute.filter { Self.resolved($0.path) != path }
        guard kept.count < absolute.count else { return .success(nil) }
        return sendPlaylist(kept).map { Optional($0) }
    }

    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
