import FoundationEssentials
import Marquee
import MarqueeConfig

/// The items a configuration's `[playback] playlist` names: folders and
/// globs expanded (relative to the file's folder), shuffled if asked.
/// Entries that give nothing are logged as warnings, not errors, since
/// media may be mounted after the player starts.
public struct PlaylistLoader {
    let log: ControlLog

    public init(log: ControlLog) {
        self.log = log
    }

    public func items(for configuration: MarqueeConfiguration, configPath: String?) -> [PlaylistResolver.Item] {
        let entries = configuration.playback.playlist
        let base = Self.base(configPath)
        let resolution = PlaylistResolver.resolve(entries, relativeTo: base)
        for warning in resolution.warnings { log.warning("playlist: \(warning)") }
        // A folder not there yet is waited for (see PlayControls+Watch), not played as a file.
        let playable = Set(FolderWatch.playable(resolution.items.map(\.source), entries: entries.map(\.path), relativeTo: base))
        let items = resolution.items.filter { playable.contains($0.source) }
        return configuration.playback.shuffle ? items.shuffled() : items
    }

    /// The folder relative entries start from: the configuration file's.
    public static func base(_ configPath: String?) -> String? {
        configPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }
}

extension PlayerItem {
    /// The item for a playlist entry's path or URL, with the entry's picture duration and captions file.
    convenience init(_ item: PlaylistResolver.Item) {
        self.init(asset: Asset(source: item.source, captionsFile: item.captions))
        imageDuration = item.duration
    }
}
