/// What a picture's YUV values mean: how to turn them into light on a
/// screen. Read from the decoded frame (the codec's VUI or the container's
/// tags); "unspecified" where the file does not say.
public struct ColourDescription: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Range: String, Sendable, Hashable, Codable {
        /// Y 16-235, chroma 16-240 (8-bit): broadcast and most video.
        case limited
        /// 0-255: JPEG, cameras and phones (yuvj formats).
        case full
        case unspecified
    }

    /// The YUV to RGB matrix.
    public enum Matrix: String, Sendable, Hashable, Codable {
        /// BT.601 (SMPTE 170M, BT.470BG): SD video, JPEG.
        case bt601
        case bt709
        /// BT.2020 non-constant luminance: UHD and HDR.
        case bt2020
        case unspecified
    }

    /// How values map to light: SDR gamma, or one of the HDR curves.
    public enum Transfer: String, Sendable, Hashable, Codable {
        case sdr
        /// SMPTE ST 2084 (HDR10).
        case pq
        /// ARIB STD-B67 hybrid log-gamma.
        case hlg
    }

    public var range: Range
    public var matrix: Matrix
    public var transfer: Transfer
    /// BT.2020 primaries (wide gamut); false for BT.709/BT.601 or unspecified.
    public var wideGamut: Bool

    public static let unspecified = ColourDescription(range: .unspecified, matrix: .unspecified, transfer: .sdr, wideGamut: false)

    public init(range: Range, matrix: Matrix, transfer: Transfer = .sdr, wideGamut: Bool = false) {
        self.range = range
        self.matrix = matrix
        self.transfer = transfer
        self.wideGamut = wideGamut
    }

    /// The matrix to apply: as tagged, else chosen by size as mpv and
    /// ffmpeg do (BT.709 above 1024x576, BT.601 up to it).
    public func effectiveMatrix(width: Int, height: Int) -> Matrix {
        if matrix != .unspecified { return matrix }
        return width > 1024 || height > 576 ? .bt709 : .bt601
    }

    /// Limited unless the file says full.
    public var effectiveRange: Range { range == .full ? .full : .limited }

    public var isHDR: Bool { transfer != .sdr }

    /// The conversion a player applies to a `width` x `height` picture:
    /// "limited BT.709", with "(guessed)" where the stream does not say and
    /// the size decides.
    public func applied(width: Int, height: Int) -> String {
        let name = switch effectiveMatrix(width: width, height: height) {
        case .bt601: "BT.601"
        case .bt709: "BT.709"
        case .bt2020: "BT.2020"
        case .unspecified: "unspecified"
        }
        var text = "\(effectiveRange.rawValue) \(name)" + (matrix == .unspecified ? " (guessed)" : "")
        if isHDR { text += " \(transfer.rawValue.uppercased())" }
        return text
    }

    public var description: String {
        var parts = ["\(range.rawValue) range", matrix == .unspecified ? "matrix unspecified" : matrix.rawValue]
        if transfer != .sdr { parts.append(transfer.rawValue) }
        if wideGamut { parts.append("BT.2020 primaries") }
        return parts.joined(separator: ", ")
    }
}
