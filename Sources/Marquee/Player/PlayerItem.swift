import Synchronization

/// One thing to play and its presentation state, like AVPlayerItem. Create it
/// from an `Asset` or a URL; its status becomes `.readyToPlay` once the
/// player has opened it, or `.failed` with `error` naming the input and why.
///
/// Thread-safe: the engine updates it from its threads; read it from anywhere.
public final class PlayerItem: Sendable, Identifiable, CustomStringConvertible {
    public enum Status: String, Sendable {
        case unknown, readyToPlay, failed
    }

    public let asset: Asset
    private let state = Mutex(State())

    struct State: Sendable {
        var status = Status.unknown
        var error: (any Error)?
        var media: MediaDescription?
        var disabledTracks: Set<Int> = []
        var loadedTimeRanges: [TimeRange] = []
        var isPlaybackBufferEmpty = true
        var isPlaybackLikelyToKeepUp = false
        var currentTime = MediaTime.zero
        var preferredForwardBufferDuration = 0.0
        var imageDuration: Double?
        var preferredPeakBitRate = 0.0
        var preferredMaximumResolution: (width: Int, height: Int)?
        var captions = ItemCaptions()
    }

    public init(asset: Asset) {
        self.asset = asset
    }

    public convenience init(source: String) {
        self.init(asset: Asset(source: source))
    }

    public var description: String { asset.source }

    /// Opens the asset now (the player otherwise does it when the item is
    /// reached), so `tracks` can be read and disabled before playback.
    /// Sets `status` to `.readyToPlay`, or `.failed` and rethrows.
    public func load() async throws {
        do {
            markReady(try await asset.load(.mediaDescription))
        } catch {
            markFailed(error)
            throw error
        }
    }

    public var status: Status { state.withLock { $0.status } }
    /// Why the item failed: an `FFmpegError` naming the call, message and input.
    public var error: (any Error)? { state.withLock { $0.error } }
    /// Indefinite until the item has been opened (and for live streams).
    public var duration: MediaTime { state.withLock { $0.media?.duration ?? .indefinite } }

    /// The item's tracks, each of which can be disabled (like AVPlayerItemTrack):
    /// disabling the audio track plays the item silently.
    public var tracks: [PlayerItemTrack] {
        state.withLock { state in
            (state.media?.tracks ?? []).map { PlayerItemTrack(item: self, track: $0) }
        }
    }

    /// Ranges of the item already demuxed ahead of the play position.
    public var loadedTimeRanges: [TimeRange] { state.withLock { $0.loadedTimeRanges } }

    /// Where the item can seek: all of it when its duration is known.
    public var seekableTimeRanges: [TimeRange] {
        let duration = duration
        return duration.isNumeric ? [TimeRange(start: .zero, duration: duration)] : []
    }

    /// Seconds of a network item to read ahead of playback, and to have
    /// buffered before playing on after a stall (when the player waits to
    /// minimize stalling); 0, the default, lets the player choose
    /// (`[playback] forward_buffer`). Read when the item is opened.
    public var preferredForwardBufferDuration: Double {
        get { state.withLock { $0.preferredForwardBufferDuration } }
        set { state.withLock { $0.preferredForwardBufferDuration = newValue.isFinite ? max(0, newValue) : 0 } }
    }

    /// Seconds the item stays up when it is a still picture (a JPEG, PNG,
    /// WebP...; `Asset`'s media `isStillImage`); nil, the default, leaves it
    /// to the player (`PlayerConfiguration.imageDuration`). Read when the
    /// item is opened; a value that is not positive is ignored.
    public var imageDuration: Double? {
        get { state.withLock { $0.imageDuration } }
        set {
            guard newValue.map({ $0.isFinite && $0 > 0 }) ?? true else { return }
            state.withLock { $0.imageDuration = newValue }
        }
    }

    /// The limit, in bits per second, on the variant of an HLS stream
    /// chosen when the item is opened: the highest within it plays (the
    /// lowest when none is). 0, the default, leaves it to the player
    /// (`[playback] peak_bitrate`).
    public var preferredPeakBitRate: Double {
        get { state.withLock { $0.preferredPeakBitRate } }
        set { state.withLock { $0.preferredPeakBitRate = newValue.isFinite ? max(0, newValue) : 0 } }
    }

    /// The largest picture of the variant chosen, in pixels; nil, the
    /// default, leaves it to the player (`[playback] max_resolution`).
    public var preferredMaximumResolution: (width: Int, height: Int)? {
        get { state.withLock { $0.preferredMaximumResolution } }
        set { state.withLock { $0.preferredMaximumResolution = newValue } }
    }

    /// The item's variant limits, each falling back on the player's.
    func variantPreference(default fallback: VariantPreference) -> VariantPreference {
        state.withLock { state in
            VariantPreference(peakBitRate: state.preferredPeakBitRate > 0 ? state.preferredPeakBitRate : fallback.peakBitRate,
                              maximumWidth: state.preferredMaximumResolution?.width ?? fallback.maximumWidth,
                              maximumHeight: state.preferredMaximumResolution?.height ?? fallback.maximumHeight)
        }
    }

    func forwardBufferDuration(automatic: Double) -> Double {
        let preferred = preferredForwardBufferDuration
        return preferred > 0 ? preferred : automatic
    }

    public var isPlaybackBufferEmpty: Bool { state.withLock { $0.isPlaybackBufferEmpty } }
    public var isPlaybackLikelyToKeepUp: Bool { state.withLock { $0.isPlaybackLikelyToKeepUp } }

    /// The item's own time of the frame (or sample) last presented.
    public func currentTime() -> MediaTime { state.withLock { $0.currentTime } }

    func isTrackEnabled(_ id: Int) -> Bool { state.withLock { !$0.disabledTracks.contains(id) } }

    func setTrack(_ id: Int, enabled: Bool) {
        state.withLock { state in
            if enabled { state.disabledTracks.remove(id) } else { state.disabledTracks.insert(id) }
        }
    }

    @discardableResult
    func update<Result: Sendable>(_ body: (inout State) -> Result) -> Result { state.withLock { body(&$0) } }

    /// What opening the item found; nil before.
    var media: MediaDescription? { state.withLock { $0.media } }

    /// A description from `load()` is kept: the player's own, from a fast
    /// open, may lack pixel and sample formats.
    func markReady(_ media: MediaDescription) {
        update {
            $0.media = $0.media ?? media
            $0.status = .readyToPlay
            $0.error = nil
        }
    }

    func markFailed(_ error: any Error) {
        update {
            $0.status = .failed
            $0.error = error
        }
    }
}

/// A track of a `PlayerItem` that can be switched off.
public struct PlayerItemTrack: Sendable {
    public let item: PlayerItem
    public let track: TrackDescription

    public var isEnabled: Bool {
        get { item.isTrackEnabled(track.id) }
        nonmutating set { item.setTrack(track.id, enabled: newValue) }
    }
}
