/// What a track carries, as the demuxer found it. A plain value so every layer
/// above the backends can read it without touching C.
public enum MediaType: String, Sendable, Hashable, Codable {
    case video, audio, subtitle, data, attachment, unknown
}

/// A rational number as containers store them (sample aspect ratio, frame rate).
public struct Rational: Sendable, Hashable, Codable, CustomStringConvertible {
    public var numerator: Int32
    public var denominator: Int32

    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Nil when the denominator is zero, which libav uses for "unknown".
    public var doubleValue: Double? {
        denominator == 0 ? nil : Double(numerator) / Double(denominator)
    }

    public var description: String { "\(numerator)/\(denominator)" }
}

public struct VideoTrackFormat: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int
    /// libav's name for the pixel format ("yuv420p", "yuv420p10le", ...).
    public var pixelFormat: String?
    public var sampleAspectRatio: Rational?
    /// How the display must turn (and mirror) the picture, from the
    /// container's display matrix (a decoded frame's SEI may say otherwise).
    public var orientation: Orientation
    /// Average frame rate in frames per second, nil when the container does not say.
    public var frameRate: Double?
    /// Range, matrix and transfer as the stream is tagged.
    public var colour: ColourDescription
    /// How the stream's pictures are scanned, where the stream says.
    public var fieldOrder: FieldOrder?
    /// One picture that goes with the sound (an MP3's or M4A's cover art),
    /// not moving pictures of their own.
    public var isAttachedPicture: Bool

    public init(width: Int, height: Int, pixelFormat: String?, sampleAspectRatio: Rational?,
                orientation: Orientation = .upright, frameRate: Double?, colour: ColourDescription = .unspecified,
                fieldOrder: FieldOrder? = nil, isAttachedPicture: Bool = false) {
        self.isAttachedPicture = isAttachedPicture
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.sampleAspectRatio = sampleAspectRatio
        self.orientation = orientation
        self.frameRate = frameRate
        self.colour = colour
        self.fieldOrder = fieldOrder
    }
}

public struct AudioTrackFormat: Sendable, Hashable, Codable {
    public var sampleRate: Int
    public var channels: Int
    /// libav's description of the layout ("stereo", "5.1(side)", "6 channels").
    public var channelLayout: String?
    /// libav's name for the decoded sample format ("fltp", "s16", ...).
    public var sampleFormat: String?

    public init(sampleRate: Int, channels: Int, channelLayout: String?, sampleFormat: String?) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.channelLayout = channelLayout
        self.sampleFormat = sampleFormat
    }
}

public struct TrackDescription: Sendable, Hashable, Identifiable {
    /// The container's stream index; stable for the life of the asset.
    public var id: Int
    public var mediaType: MediaType
    /// libav's codec name ("h264", "hevc", "aac"); "none" when unknown.
    public var codec: String
    public var profile: String?
    /// True when this build of libavcodec has a decoder for the codec.
    public var isDecodable: Bool
    public var language: String?
    public var title: String?
    public var duration: MediaTime
    public var bitRate: Int?
    public var video: VideoTrackFormat?
    public var audio: AudioTrackFormat?

    public init(id: Int, mediaType: MediaType, codec: String, profile: String?, isDecodable: Bool,
                language: String?, title: String?, duration: MediaTime, bitRate: Int?,
                video: VideoTrackFormat?, audio: AudioTrackFormat?) {
        self.id = id
        self.mediaType = mediaType
        self.codec = codec
        self.profile = profile
        self.isDecodable = isDecodable
        self.language = language
        self.title = title
        self.duration = duration
        self.bitRate = bitRate
        self.video = video
        self.audio = audio
    }

    /// A track the player can render: audio or video with a decoder.
    public var isPlayable: Bool {
        isDecodable && (mediaType == .video || mediaType == .audio)
    }
}

/// Everything probing an input tells: container, duration, tracks, metadata.
public struct MediaDescription: Sendable, Hashable {
    /// The path or URL as the caller gave it.
    public var source: String
    /// libavformat's short name(s) for the container ("mov,mp4,m4a,3gp,3g2,mj2").
    public var containerFormat: String
    public var duration: MediaTime
    public var startTime: MediaTime
    public var bitRate: Int?
    public var tracks: [TrackDescription]
    public var metadata: [String: String]
    /// An adaptive stream's variants (empty for anything else).
    public var variants: [StreamVariant]

    public init(source: String, containerFormat: String, duration: MediaTime, startTime: MediaTime,
                bitRate: Int?, tracks: [TrackDescription], metadata: [String: String], variants: [StreamVariant] = []) {
        self.variants = variants
        self.source = source
        self.containerFormat = containerFormat
        self.duration = duration
        self.startTime = startTime
        self.bitRate = bitRate
        self.tracks = tracks
        self.metadata = metadata
    }

    /// The track the player picks by default for a media type: the first
    /// playable one (of `variant`, when given).
    public func preferredTrack(_ type: MediaType, in variant: StreamVariant? = nil) -> TrackDescription? {
        tracks.first { $0.mediaType == type && $0.isPlayable && (variant?.tracks.contains($0.id) ?? true) }
    }

    public var isPlayable: Bool { tracks.contains { $0.isPlayable } }

    /// A single picture (JPEG, PNG, WebP, BMP...): read by libavformat's
    /// image readers (`image2`, `*_pipe`), one video track and nothing else
    /// playable. An animated GIF has a demuxer of its own and plays as video.
    public var isStillImage: Bool {
        guard containerFormat == "image2" || containerFormat.hasSuffix("_pipe") else { return false }
        let playable = tracks.filter(\.isPlayable)
        return playable.count == 1 && playable[0].mediaType == .video
    }
}
