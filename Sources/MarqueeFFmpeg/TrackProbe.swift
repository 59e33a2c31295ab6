import CFFmpeg
import MarqueeCore

/// Reads a stream's codec parameters and side data into a `TrackDescription`.
enum TrackProbe {
    static func describe(_ stream: UnsafeMutablePointer<AVStream>, container: FormatContext) -> TrackDescription {
        let parameters = stream.pointee.codecpar.pointee
        let metadata = dictionary(stream.pointee.metadata)
        let mediaType = mediaType(parameters.codec_type)
        let profileName = avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) }
        var duration = MediaTime(libav: stream.pointee.duration, timeBase: stream.pointee.time_base)
        if !duration.isValid { duration = container.duration }

        return TrackDescription(
            id: Int(stream.pointee.index),
            mediaType: mediaType,
            codec: String(cString: avcodec_get_name(parameters.codec_id)),
            profile: profileName,
            isDecodable: isDecodable(parameters),
            language: metadata["language"].flatMap { $0 == "und" ? nil : $0 },
            title: metadata["title"],
            duration: duration,
            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil,
            video: mediaType == .video ? videoFormat(stream) : nil,
            audio: mediaType == .audio ? audioFormat(parameters) : nil)
    }

    static func mediaType(_ type: AVMediaType) -> MediaType {
        switch type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        case AVMEDIA_TYPE_DATA: .data
        case AVMEDIA_TYPE_ATTACHMENT: .attachment
        default: .unknown
        }
    }

    /// A decoder exists and the stream says enough to configure it: a video
    /// stream without dimensions (a missing sample description) cannot be shown.
    private static func isDecodable(_ parameters: AVCodecParameters) -> Bool {
        guard avcodec_find_decoder(parameters.codec_id) != nil else { return false }
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: return parameters.width > 0 && parameters.height > 0
        case AVMEDIA_TYPE_AUDIO: return parameters.sample_rate > 0 && parameters.ch_layout.nb_channels > 0
        default: return true
        }
    }

    private static func videoFormat(_ stream: UnsafeMutablePointer<AVStream>) -> VideoTrackFormat {
        let parameters = stream.pointee.codecpar.pointee
        let pixelFormat = av_get_pix_fmt_name(AVPixelFormat(parameters.format)).map { String(cString: $0) }
        let sar = parameters.sample_aspect_ratio
        let rate = stream.pointee.avg_frame_rate.den != 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        return VideoTrackFormat(
            width: Int(parameters.width),
            height: Int(parameters.height),
            pixelFormat: pixelFormat,
            sampleAspectRatio: sar.num > 0 && sar.den > 0 ? Rational(sar.num, sar.den) : nil,
            orientation: PictureTags.orientation(of: stream) ?? .upright,
            frameRate: rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : nil,
            colour: PictureTags.colour(range: parameters.color_range, space: parameters.color_space,
                                       transfer: parameters.color_trc, primaries: parameters.color_primaries,
                                       format: AVPixelFormat(parameters.format)),
            fieldOrder: PictureTags.fieldOrder(parameters.field_order),
            isAttachedPicture: stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0)
    }

    private static func audioFormat(_ parameters: AVCodecParameters) -> AudioTrackFormat {
        var layout = parameters.ch_layout
        var buffer = [CChar](repeating: 0, count: 128)
        let described = av_channel_layout_describe(&layout, &buffer, buffer.count) >= 0
        let sampleFormat = av_get_sample_fmt_name(AVSampleFormat(parameters.format)).map { String(cString: $0) }
        return AudioTrackFormat(
            sampleRate: Int(parameters.sample_rate),
            channels: Int(parameters.ch_layout.nb_channels),
            channelLayout: described ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil,
            sampleFormat: sampleFormat)
    }
}
