import Dispatch
import FoundationEssentials
import MarqueeFFmpeg
import Synchronization

/// A piece of media at a path or URL: anything libavformat opens (files,
/// http(s), HLS, ...). Like AVURLAsset, creating one does no I/O; the first
/// `load(...)` opens and probes the input once, off the caller's thread, and
/// every later load answers from that result.
public final class Asset: Sendable {
    /// The path or URL as given.
    public let source: String
    /// Seconds opening and probing may take before the load fails.
    public let timeout: Double
    /// How `load` asks an rtsp:// server for packets; a player plays the
    /// asset by its own `PlayerConfiguration.network.rtspTransport`.
    public let rtspTransport: RTSPTransport
    /// A subtitle file for the asset that its name does not tie to it (a
    /// playlist entry's `captions`); files named for it are found anyway.
    public let captionsFile: String?
    private let probe = Mutex<Task<MediaDescription, any Error>?>(nil)

    public init(source: String, timeout: Double = 10, rtspTransport: RTSPTransport = .tcp, captionsFile: String? = nil) {
        self.source = source
        self.captionsFile = captionsFile
        self.timeout = timeout
        self.rtspTransport = rtspTransport
    }

    /// Read over a network (a URL whose scheme is not `file`): such a source
    /// can go away and come back, and is waited for rather than given up.
    public var isNetworkSource: Bool {
        guard let scheme = source.firstRange(of: "://").map({ source[..<$0.lowerBound].lowercased() }) else { return false }
        return !scheme.isEmpty && scheme != "file"
    }

    public convenience init(url: URL, timeout: Double = 10, rtspTransport: RTSPTransport = .tcp) {
        self.init(source: url.isFileURL ? url.path : url.absoluteString, timeout: timeout, rtspTransport: rtspTransport)
    }

    /// Loads one or more properties, e.g. `let (tracks, duration) = try await asset.load(.tracks, .duration)`.
    /// - Throws: `FFmpegError` naming the libav call, its message and the source
    ///   when the input cannot be opened or probed.
    public func load<each Value>(_ property: repeat AssetProperty<each Value>) async throws -> (repeat each Value) {
        let media = try await description()
        return (repeat (each property).value(media))
    }

    /// The alternatives for `characteristic`, like AVAsset's
    /// `loadMediaSelectionGroup(for:)`: for `.legible`, `captionsFile`,
    /// the subtitle files named for the asset (`NAME.srt`, `NAME.de.vtt`, ...)
    /// and the file's text subtitle tracks, in that order; nil when there are none.
    public func loadMediaSelectionGroup(for characteristic: MediaCharacteristic) async throws -> MediaSelectionGroup? {
        let media = try await description()
        let group = legibleGroup(media)
        return group.options.isEmpty ? nil : group
    }

    func legibleGroup(_ media: MediaDescription) -> MediaSelectionGroup {
        let tracks = media.tracks.filter { $0.mediaType == .subtitle }.map {
            MediaSelectionOption(source: .track($0.id), languageCode: $0.language, codec: $0.codec, title: $0.title)
        }
        let files = (captionsFile.map { [$0] } ?? []) + (isNetworkSource ? [] : SidecarFiles.named(for: source))
        let sidecars = files.map { path in
            MediaSelectionOption(source: .file(path), languageCode: SidecarFiles.language(of: path, for: source),
                                 codec: String(path.split(separator: ".").last ?? "").lowercased())
        }
        return MediaSelectionGroup(characteristic: .legible, options: sidecars + tracks)
    }

    private func description() async throws -> MediaDescription {
        let task = probe.withLock { task in
            if let task { return task }
            let source = source, timeout = timeout, rtspTransport = rtspTransport
            let started = Task { try await Asset.probeOffPool(source, timeout: timeout, rtspTransport: rtspTransport) }
            task = started
            return started
        }
        return try await task.value
    }

    /// Probing blocks on I/O for up to `timeout`; it runs on a Dispatch thread so
    /// it never ties up the cooperative pool.
    private static func probeOffPool(_ source: String, timeout: Double,
                                     rtspTransport: RTSPTransport) async throws -> MediaDescription {
        try await offCooperativePool {
            try MediaProber.describe(source, timeout: timeout, network: NetworkOptions(rtspTransport: rtspTransport))
        }
    }
}

/// A property an `Asset` can load, in the spirit of AVAsyncProperty.
public struct AssetProperty<Value: Sendable>: Sendable {
    let value: @Sendable (MediaDescription) -> Value
}

extension AssetProperty where Value == [TrackDescription] {
    public static var tracks: Self { Self { $0.tracks } }
}

extension AssetProperty where Value == MediaTime {
    /// Indefinite for live streams and inputs that do not state a length.
    public static var duration: Self { Self { $0.duration } }
}

extension AssetProperty where Value == [String: String] {
    public static var metadata: Self { Self { $0.metadata } }
}

extension AssetProperty where Value == Bool {
    /// True when at least one audio or video track can be decoded.
    public static var isPlayable: Self { Self { $0.isPlayable } }
}

extension AssetProperty where Value == MediaDescription {
    /// Everything the probe found, in one value.
    public static var mediaDescription: Self { Self { $0 } }
}
