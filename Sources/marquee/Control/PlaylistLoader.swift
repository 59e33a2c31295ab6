import Foundation
import Marquee
import MarqueeConfig

/// The items a configuration's `[playback] playlist` names: folders and
/// globs expanded (relative to the file's folder), shuffled if asked.
/// Entries that give nothing are logged as warnings, not errors, since
/// media may be mounted after the player starts.
struct PlaylistLoader {
    let log: ControlLog

    func items(for configuration: MarqueeConfiguration, configPath: String?) -> [PlaylistResolver.Item] {
        let base = configPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        let resolution = PlaylistResolver.resolve(configuration.playback.playlist, relativeTo: base)
        for warning in resolution.warnings { log.warning("playlist: \(warning)") }
        return configuration.playback.shuffle ? resolution.items.shuffled() : resolution.items
    }
}

extension PlayerItem {
    /// The item for a playlist entry's path or URL, with the entry's picture duration.
    convenience init(_ item: PlaylistResolver.Item) {
        self.init(source: item.source)
        imageDuration = item.duration
    }
}
