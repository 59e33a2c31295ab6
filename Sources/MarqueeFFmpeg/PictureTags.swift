import CFFmpeg
import MarqueeCore

/// How libav's pictures say they are to be shown: orientation from a
/// display matrix (a stream's, or a frame's from an H.264/HEVC display
/// orientation SEI), pixel aspect, and colour tags.
enum PictureTags {
    /// The orientation a 3x3 display matrix (16.16 fixed point) asks for.
    /// Its first two rows are where the picture's x and y axes go.
    static func orientation(displayMatrix matrix: UnsafePointer<Int32>) -> Orientation? {
        let unit = Double(1 << 16)
        return Orientation(xAxis: (Double(matrix[0]) / unit, Double(matrix[1]) / unit),
                           yAxis: (Double(matrix[3]) / unit, Double(matrix[4]) / unit))
    }

    static func orientation(of stream: UnsafeMutablePointer<AVStream>) -> Orientation? {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
              size >= 9 * MemoryLayout<Int32>.size else { return nil }
        return data.withMemoryRebound(to: Int32.self, capacity: 9) { orientation(displayMatrix: $0) }
    }

    static func orientation(of frame: UnsafePointer<AVFrame>) -> Orientation? {
        guard let side = av_frame_get_side_data(frame, AV_FRAME_DATA_DISPLAYMATRIX),
              side.pointee.size >= 9 * MemoryLayout<Int32>.size else { return nil }
        return side.pointee.data.withMemoryRebound(to: Int32.self, capacity: 9) { orientation(displayMatrix: $0) }
    }

    /// Width over height of one pixel; nil when unset (0/0, 0/1) or absurd.
    static func sampleAspect(_ ratio: AVRational) -> Double? {
        guard ratio.num > 0, ratio.den > 0 else { return nil }
        let value = Double(ratio.num) / Double(ratio.den)
        return (0.1...10).contains(value) ? value : nil
    }

    static func colour(range: AVColorRange, space: AVColorSpace, transfer: AVColorTransferCharacteristic,
                       primaries: AVColorPrimaries, format: AVPixelFormat) -> ColourDescription {
        let full = range == AVCOL_RANGE_JPEG || Self.fullRangeFormats.contains(format)
        let matrix: ColourDescription.Matrix = switch space {
        case AVCOL_SPC_BT709: .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_FCC: .bt601
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: .bt2020
        default: .unspecified
        }
        let curve: ColourDescription.Transfer = switch transfer {
        case AVCOL_TRC_SMPTE2084: .pq
        case AVCOL_TRC_ARIB_STD_B67: .hlg
        default: .sdr
        }
        return ColourDescription(range: full ? .full : range == AVCOL_RANGE_MPEG ? .limited : .unspecified,
                                 matrix: matrix, transfer: curve, wideGamut: primaries == AVCOL_PRI_BT2020)
    }

    static func colour(of frame: AVFrame) -> ColourDescription {
        colour(range: frame.color_range, space: frame.colorspace, transfer: frame.color_trc,
               primaries: frame.color_primaries, format: AVPixelFormat(frame.format))
    }

    /// A stream's field order; nil where it does not say.
    static func fieldOrder(_ order: AVFieldOrder) -> FieldOrder? {
        switch order {
        case AV_FIELD_PROGRESSIVE: .progressive
        // TB and BT: coded in one order, shown in the other; what counts on screen is the display order.
        case AV_FIELD_TT, AV_FIELD_BT: .topFieldFirst
        case AV_FIELD_BB, AV_FIELD_TB: .bottomFieldFirst
        default: nil
        }
    }

    /// The decoded frame's own interlacing flags.
    static func fieldOrder(of frame: AVFrame) -> FieldOrder {
        guard frame.interlaced_frame != 0 else { return .progressive }
        return frame.top_field_first != 0 ? .topFieldFirst : .bottomFieldFirst
    }

    /// The deprecated yuvj formats mean full range whatever the range tag says.
    static let fullRangeFormats: [AVPixelFormat] = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P,
                                                       AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P]
}

/// What a stream says about its pictures, for frames that do not say it
/// themselves: the decoder's frame tags win (the codec's VUI and SEI),
/// the container's fill in. A display orientation SEI persists: libavcodec
/// attaches it to the picture that carried it (often only the first), and
/// it holds for the pictures after it until another says otherwise.
struct StreamPicture: Sendable {
    var orientation = Orientation.upright
    var sampleAspect = 1.0
    /// The stream's field order, for frames not flagged interlaced: some
    /// encoders mark only the container (or the sequence) as interlaced.
    var fieldOrder = FieldOrder.progressive

    init(_ stream: UnsafeMutablePointer<AVStream>) {
        orientation = PictureTags.orientation(of: stream) ?? .upright
        fieldOrder = PictureTags.fieldOrder(stream.pointee.codecpar.pointee.field_order) ?? .progressive
        sampleAspect = PictureTags.sampleAspect(stream.pointee.sample_aspect_ratio)
            ?? PictureTags.sampleAspect(stream.pointee.codecpar.pointee.sample_aspect_ratio) ?? 1
    }

    /// `frame` tagged from the decoded `source`, with this stream's values where it says nothing.
    mutating func tag(_ frame: inout VideoFrame, from source: UnsafePointer<AVFrame>) {
        if let carried = PictureTags.orientation(of: source) { orientation = carried }
        frame.orientation = orientation
        frame.sampleAspect = PictureTags.sampleAspect(source.pointee.sample_aspect_ratio) ?? sampleAspect
        frame.colour = PictureTags.colour(of: source.pointee)
        let flagged = PictureTags.fieldOrder(of: source.pointee)
        frame.fieldOrder = flagged.isInterlaced ? flagged : fieldOrder
    }
}
