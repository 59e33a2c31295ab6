import FoundationEssentials
import MarqueeConfig
import MarqueeControl
import MarqueeCore

/// The schedule a control channel sent (`PUT /schedule`), kept as its TOML
/// text in `schedule.toml` beside the playlist store, and put in place of
/// the configuration file's `[[schedule]]`, `[playlists.*]` and
/// `[schedule_options]` at each start and reload. Written with
/// `AtomicFile`: a crash or a power cut leaves the old file or the new one.
public struct ScheduleStore: Sendable {
    let path: String

    /// Beside the configuration's playlist store; nil where there is none.
    init?(_ http: MarqueeConfiguration.HTTPControl, configPath: String?) {
        guard let playlists = PlaylistStore(http, configPath: configPath) else { return nil }
        path = "\(PathText.deletingLastComponent(playlists.path))/schedule.toml"
    }

    /// Puts the saved schedule, if any, in place of the configuration's. A
    /// saved file that cannot be read is one warning, and the
    /// configuration's schedule stays.
    public static func applySaved(to configuration: inout MarqueeConfiguration, configPath: String?, log: ControlLog) {
        guard let store = ScheduleStore(configuration.controls.http, configPath: configPath),
              FileManager.default.fileExists(atPath: store.path) else { return }
        guard let data = FileManager.default.contents(atPath: store.path) else {
            return log.warning("\(store.path): cannot be read; following the configuration's schedule")
        }
        let document: ScheduleDocument
        do throws(ConfigurationError) {
            document = try ScheduleDocument(String(decoding: data, as: UTF8.self), file: store.path)
        } catch {
            return log.warning("\(error)\n(following the configuration's schedule)")
        }
        // Its entries name files in the media roots as they were when it was sent.
        switch MediaRoots(configuration.playback.mediaRoots, relativeTo: PlaylistLoader.base(configPath)).confine(document) {
        case .success(let confined):
            confined.apply(to: &configuration)
            log.debug("schedule: from \(store.path), sent over HTTP, in place of the configuration's")
        case .failure(let error):
            log.warning("\(store.path): \(error.message); following the configuration's schedule")
        }
    }

    func save(_ text: String) throws(ControlError) {
        try AtomicFile.replace(path, with: Array(text.utf8), what: "schedule")
    }
}
