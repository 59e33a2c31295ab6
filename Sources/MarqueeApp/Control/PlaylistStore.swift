import FoundationEssentials
import Glibc
import MarqueeConfig
import MarqueeControl
import MarqueeCore

/// The playlist a control channel sent (`PUT /playlist`), kept in a state
/// file (`[controls.http] playlist_file`, by default under systemd's
/// StateDirectory) that takes the place of the configuration file's
/// playlist at each start and reload: the configuration may sit on a
/// read-only root, and a reboot must keep what was sent. Written with
/// `AtomicFile`: a crash or a power cut leaves the old file or the new one.
public struct PlaylistStore: Sendable {
    let path: String

    /// The store a configuration names: `playlist_file` (relative to the
    /// file's folder), else `playlist.json` under $STATE_DIRECTORY; nil for none.
    init?(_ http: MarqueeConfiguration.HTTPControl, configPath: String?,
          environment: [String: String] = ProcessInfo.processInfo.environment) {
        if !http.playlistFile.isEmpty {
            path = PlaylistResolver.absolute(http.playlistFile, base: PlaylistLoader.base(configPath))
        } else if let directory = environment["STATE_DIRECTORY"]?.split(separator: ":").first {
            path = "\(directory)/playlist.json"
        } else {
            return nil
        }
    }

    /// The saved playlist; nil when there is none. A file that cannot be
    /// read as one is an error naming it (the configuration's playlist is
    /// then used).
    func load() throws(ControlError) -> [PlaylistEntry]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { throw ControlError("\(path): cannot be read") }
        do {
            return try Self.entries(from: Array(data))
        } catch {
            throw ControlError("\(path): \(error.message)")
        }
    }

    /// Puts the saved playlist, if any, in place of the configuration's.
    /// A saved file that cannot be read is one warning, and the
    /// configuration's playlist stays.
    public static func applySaved(to configuration: inout MarqueeConfiguration, configPath: String?, log: ControlLog) {
        guard let store = PlaylistStore(configuration.controls.http, configPath: configPath) else { return }
        do {
            guard let saved = try store.load() else { return }
            configuration.playback.playlist = saved
            log.debug("playlist: \(saved.count) entries from \(store.path), sent over HTTP, in place of the configuration's")
        } catch {
            log.warning("\(error); playing the configuration's playlist")
        }
    }

    /// Replaces the saved playlist atomically (`AtomicFile`).
    /// - Throws: `ControlError` naming the call and the file.
    func save(_ entries: [PlaylistEntry]) throws(ControlError) {
        try AtomicFile.replace(path, with: Array((Self.json(entries).jsonText + "\n").utf8), what: "playlist")
    }

    /// A playlist as sent or saved: `{"playlist": [...]}` or the array
    /// itself, each element a path or URL, or `{"path": ..., "duration": S, "captions": FILE}`.
    /// - Throws: `ControlError` saying which element is wrong and why.
    static func entries(from bytes: [UInt8]) throws(ControlError) -> [PlaylistEntry] {
        guard JSONValue.nestingDepth(of: String(decoding: bytes, as: UTF8.self)) <= 8 else { throw ControlError("malformed JSON: nested too deep") }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw ControlError("malformed JSON: expected {\"playlist\": [\"a.mp4\", {\"path\": \"b.jpg\", \"duration\": 5}]}")
        }
        let elements: [JSONValue]
        switch value {
        case .array(let array): elements = array
        case .object(let object):
            if let unknown = object.keys.sorted().first(where: { $0 != "playlist" }) {
                throw ControlError("unknown field '\(unknown.prefix(40))' (the body is {\"playlist\": [...]})")
            }
            guard case .array(let array)? = object["playlist"] else { throw ControlError("'playlist' must be an array") }
            elements = array
        default: throw ControlError("the body must be {\"playlist\": [...]} or an array")
        }
        guard elements.count <= 10_000 else { throw ControlError("a playlist of \(elements.count) entries; at most 10000") }
        var entries: [PlaylistEntry] = []
        for (index, element) in elements.enumerated() {
            switch element {
            case .string(let path) where !path.isEmpty:
                entries.append(PlaylistEntry(path: path))
            case .object(let fields):
                guard case .string(let path)? = fields["path"], !path.isEmpty else {
                    throw ControlError("playlist[\(index)]: needs a \"path\"")
                }
                if let unknown = fields.keys.sorted().first(where: { !["path", "duration", "captions"].contains($0) }) {
                    throw ControlError("playlist[\(index)]: unknown field '\(unknown.prefix(40))' (path, duration, captions)")
                }
                var captions: String?
                switch fields["captions"] {
                case nil, .null?: break
                case .string(let file)? where !file.isEmpty: captions = file
                default: throw ControlError("playlist[\(index)]: \"captions\" must be a file's path")
                }
                var duration: Double?
                switch fields["duration"] {
                case nil, .null?: break
                case .integer(let seconds)?: duration = Double(seconds)
                case .number(let seconds)?: duration = seconds
                default: throw ControlError("playlist[\(index)]: \"duration\" must be seconds")
                }
                if let duration, !PlaylistEntry.durations.contains(duration) {
                    throw ControlError("playlist[\(index)]: duration \(duration) s is outside \(PlaylistEntry.durations.lowerBound)...\(Int(PlaylistEntry.durations.upperBound)) s")
                }
                entries.append(PlaylistEntry(path: path, duration: duration, captions: captions))
            default:
                throw ControlError("playlist[\(index)]: must be a path or {\"path\": ..., \"duration\": ...}")
            }
        }
        return entries
    }

    static func json(_ entries: [PlaylistEntry]) -> JSONValue {
        .object(["playlist": .array(entries.map { entry in
            guard entry.duration != nil || entry.captions != nil else { return .string(entry.path) }
            var fields: [String: JSONValue] = ["path": .string(entry.path)]
            if let duration = entry.duration { fields["duration"] = .number(duration) }
            if let captions = entry.captions { fields["captions"] = .string(captions) }
            return .object(fields)
        })])
    }
}
