import CFFmpeg
import CVA

extension VADevice {
    /// Checks that the driver decodes this stream, asking it rather than
    /// letting libavcodec find out mid-stream: a VLD entry point for the
    /// stream's VA profile, a profile that carries its bit depth, and a
    /// maximum picture size that holds it.
    /// - Throws: `.unsupported` saying which of these is missing.
    func checkDecodes(_ parameters: UnsafePointer<AVCodecParameters>) throws(HardwareDecodingError) {
        let stream = Self.describe(parameters)
        let depth = Self.bitDepth(parameters)
        let candidates = Self.vaProfiles(codec: parameters.pointee.codec_id, profile: parameters.pointee.profile)
            .filter { depth <= $0.maximumDepth }
        guard !candidates.isEmpty else {
            throw .unsupported(device: path, stream: stream, reason: "VA-API has no profile for it")
        }
        let decodable = try profiles().filter(\.decodes).map(\.profile)
        guard let profile = candidates.map(\.profile).first(where: decodable.contains) else {
            let names = candidates.map { String(cString: vaProfileStr($0.profile)) }.joined(separator: " or ")
            throw .unsupported(device: path, stream: stream, reason: "the driver (\(vendor)) has no VLD decoder for \(names)")
        }
        let width = Int(parameters.pointee.width)
        let height = Int(parameters.pointee.height)
        if let limit = try maximumSize(decoding: profile), width > limit.width || height > limit.height {
            throw .unsupported(device: path, stream: stream,
                               reason: "\(width)x\(height) is larger than the driver's \(limit.width)x\(limit.height)")
        }
    }

    /// The VA profiles libavcodec's VA-API hwaccel uses for a codec profile
    /// (its vaapi_decode.c table), with the deepest samples each one carries.
    static func vaProfiles(codec: AVCodecID, profile: Int32) -> [(profile: VAProfile, maximumDepth: Int)] {
        switch (codec, profile) {
        case (AV_CODEC_ID_MPEG2VIDEO, FF_PROFILE_MPEG2_SIMPLE): [(VAProfileMPEG2Simple, 8)]
        case (AV_CODEC_ID_MPEG2VIDEO, _): [(VAProfileMPEG2Main, 8)]
        case (AV_CODEC_ID_H264, FF_PROFILE_H264_CONSTRAINED_BASELINE):
            [(VAProfileH264ConstrainedBaseline, 8), (VAProfileH264Main, 8), (VAProfileH264High, 8)]
        case (AV_CODEC_ID_H264, FF_PROFILE_H264_MAIN): [(VAProfileH264Main, 8), (VAProfileH264High, 8)]
        case (AV_CODEC_ID_H264, FF_PROFILE_H264_HIGH): [(VAProfileH264High, 8)]
        case (AV_CODEC_ID_HEVC, FF_PROFILE_HEVC_MAIN): [(VAProfileHEVCMain, 8), (VAProfileHEVCMain10, 10)]
        case (AV_CODEC_ID_HEVC, FF_PROFILE_HEVC_MAIN_10): [(VAProfileHEVCMain10, 10)]
        case (AV_CODEC_ID_VP8, _): [(VAProfileVP8Version0_3, 8)]
        case (AV_CODEC_ID_VP9, FF_PROFILE_VP9_0): [(VAProfileVP9Profile0, 8)]
        case (AV_CODEC_ID_VP9, FF_PROFILE_VP9_2): [(VAProfileVP9Profile2, 10)]
        case (AV_CODEC_ID_AV1, FF_PROFILE_AV1_MAIN): [(VAProfileAV1Profile0, 10)]
        default: []
        }
    }

    /// Bits per sample of the stream's pixel format (8 when unknown).
    static func bitDepth(_ parameters: UnsafePointer<AVCodecParameters>) -> Int {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(parameters.pointee.format)) else { return 8 }
        return Int(descriptor.pointee.comp.0.depth)
    }

    /// "h264 High 1920x1080 8-bit", for error lines.
    static func describe(_ parameters: UnsafePointer<AVCodecParameters>) -> String {
        let codec = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        let profile = avcodec_profile_name(parameters.pointee.codec_id, parameters.pointee.profile).map { " " + String(cString: $0) } ?? ""
        return "\(codec)\(profile) \(parameters.pointee.width)x\(parameters.pointee.height) \(bitDepth(parameters))-bit"
    }
}
