import FoundationEssentials
import Marquee

/// One input's result for `marquee info`: its description, or why it cannot play.
struct InfoReport: Encodable {
    let source: String
    let media: MediaDescription?
    /// One line naming the input and the reason, when it cannot be played.
    let error: String?
    /// How the player deinterlaces, for what the report says it applies to each picture.
    let deinterlacing: Deinterlacing

    static func probe(_ source: String, timeout: Double, rtspTransport: RTSPTransport,
                      deinterlacing: Deinterlacing) async -> InfoReport {
        do {
            let media = try await Asset(source: source, timeout: timeout, rtspTransport: rtspTransport).load(.mediaDescription)
            guard media.isPlayable else {
                let found = media.tracks.isEmpty ? "no tracks" : media.tracks.map(\.summary).joined(separator: ", ")
                return InfoReport(source: source, media: media, error: "\(source): no playable audio or video track (\(found))",
                                  deinterlacing: deinterlacing)
            }
            return InfoReport(source: source, media: media, error: nil, deinterlacing: deinterlacing)
        } catch let error as FFmpegError {
            return InfoReport(source: source, media: nil, error: error.description, deinterlacing: deinterlacing)
        } catch {
            return InfoReport(source: source, media: nil, error: "\(source): \(error)", deinterlacing: deinterlacing)
        }
    }

    var table: String {
        guard let media else { return "" }
        var lines = [source]
        lines.append("  container  \(media.containerFormat)")
        lines.append("  duration   \(media.duration.formattedSeconds)")
        if let bitRate = media.bitRate { lines.append("  bit rate   \(bitRate / 1000) kb/s") }
        for track in media.tracks { lines.append("  #\(track.id) \(track.mediaType.rawValue.padded(to: 8)) \(track.detail(deinterlacing: deinterlacing))") }
        for (key, value) in media.metadata.sorted(by: { $0.key < $1.key }) where !value.isEmpty {
            lines.append("  \(key): \(value)")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ reports: [InfoReport]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(reports) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    private enum CodingKeys: String, CodingKey {
        case source, error, container, duration, startTime = "start_time", bitRate = "bit_rate", tracks, metadata
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(error, forKey: .error)
        guard let media else { return }
        try container.encode(media.containerFormat, forKey: .container)
        try container.encodeIfPresent(media.duration.finiteSeconds, forKey: .duration)
        try container.encodeIfPresent(media.startTime.finiteSeconds, forKey: .startTime)
        try container.encodeIfPresent(media.bitRate, forKey: .bitRate)
        try container.encode(media.tracks.map { TrackReport($0, deinterlacing: deinterlacing) }, forKey: .tracks)
        try container.encode(media.metadata, forKey: .metadata)
    }
}

/// A track as `info --json` writes it: flat, snake_case, seconds as numbers.
struct TrackReport: Encodable {
    let index: Int
    let type: String
    let codec: String
    let profile: String?
    let decodable: Bool
    let language: String?
    let title: String?
    let duration: Double?
    let bit_rate: Int?
    let width: Int?
    let height: Int?
    let pixel_format: String?
    let sample_aspect_ratio: String?
    let rotation: Int?
    let mirrored: Bool?
    let frame_rate: Double?
    /// The range and matrix the player converts with (tagged, else guessed as the doc says).
    let color_range: String?
    let color_matrix: String?
    let transfer: String?
    let field_order: String?
    /// What the player applies: "off", "bwdif frame" or "bwdif field".
    let deinterlace: String?
    /// How the picture is brought to SDR BT.709: "none", "tonemap PQ->SDR hable", ...
    let hdr: String?
    let sample_rate: Int?
    let channels: Int?
    let channel_layout: String?
    let sample_format: String?

    init(_ track: TrackDescription, deinterlacing: Deinterlacing) {
        index = track.id
        type = track.mediaType.rawValue
        codec = track.codec
        profile = track.profile
        decodable = track.isDecodable
        language = track.language
        title = track.title
        duration = track.duration.finiteSeconds
        bit_rate = track.bitRate
        width = track.video?.width
        height = track.video?.height
        pixel_format = track.video?.pixelFormat
        sample_aspect_ratio = track.video?.sampleAspectRatio.map { "\($0.numerator):\($0.denominator)" }
        rotation = track.video?.orientation.rotation
        mirrored = track.video?.orientation.mirrored
        frame_rate = track.video?.frameRate
        let colour = track.video?.colour
        color_range = colour?.effectiveRange.rawValue
        color_matrix = track.video.map { $0.colour.effectiveMatrix(width: $0.width, height: $0.height).rawValue }
        transfer = colour?.transfer.rawValue
        field_order = track.video?.fieldOrder?.rawValue
        let filters = track.video?.filters(deinterlacing: deinterlacing)
        deinterlace = filters?.deinterlaceDescription
        hdr = filters?.rangeDescription
        sample_rate = track.audio?.sampleRate
        channels = track.audio?.channels
        channel_layout = track.audio?.channelLayout
        sample_format = track.audio?.sampleFormat
    }
}

extension TrackDescription {
    /// "h264 (High)", for error lines.
    var summary: String {
        let kind = "\(mediaType.rawValue) \(codec)"
        return isDecodable ? kind : "\(kind) not decodable"
    }

    /// The table line after the index and type.
    func detail(deinterlacing: Deinterlacing) -> String {
        var parts = [profile.map { "\(codec) (\($0))" } ?? codec]
        if let video {
            parts.append("\(video.width)x\(video.height)")
            if let format = video.pixelFormat { parts.append(format) }
            if let rate = video.frameRate { parts.append("\(String(rate, significant: 3)) fps") }
            if let sar = video.sampleAspectRatio, sar.numerator != sar.denominator {
                parts.append("SAR \(sar.numerator):\(sar.denominator)")
            }
            if !video.orientation.isUpright { parts.append(video.orientation.description) }
            parts.append(video.colour.applied(width: video.width, height: video.height))
            let filters = video.filters(deinterlacing: deinterlacing)
            if let order = video.fieldOrder, order.isInterlaced { parts.append("interlaced (\(order == .topFieldFirst ? "TFF" : "BFF"))") }
            if filters.deinterlace != nil || video.fieldOrder?.isInterlaced == true {
                parts.append(filters.deinterlace == nil ? "deinterlace off" : filters.deinterlaceDescription)
            }
            if let conversion = filters.rangeConversion { parts.append(conversion.rawValue) }
        }
        if let audio {
            parts.append("\(audio.sampleRate) Hz")
            parts.append(audio.channelLayout ?? "\(audio.channels) ch")
            if let format = audio.sampleFormat { parts.append(format) }
        }
        parts.append(duration.formattedSeconds)
        if let language { parts.append("[\(language)]") }
        if let title { parts.append("\"\(title)\"") }
        if !isDecodable { parts.append("(no decoder or incomplete parameters)") }
        return parts.joined(separator: "  ")
    }
}

extension VideoTrackFormat {
    /// What the player applies to the track's pictures: what the stream says
    /// (a stream that does not give its field order is taken as progressive;
    /// frames flagged interlaced are deinterlaced all the same).
    func filters(deinterlacing: Deinterlacing) -> PictureFilters {
        PictureFilters(colour: colour, fieldOrder: fieldOrder ?? .progressive, deinterlacing: deinterlacing)
    }
}

extension MediaTime {
    /// Seconds for numeric times; nil for invalid, indefinite and infinite ones.
    var finiteSeconds: Double? { isNumeric ? seconds : nil }

    var formattedSeconds: String {
        finiteSeconds.map { "\(String($0, places: 3)) s" } ?? (isIndefinite ? "unknown length" : "\(self)")
    }
}
