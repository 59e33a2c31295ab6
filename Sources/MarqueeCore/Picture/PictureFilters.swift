/// What the player does to a decoded picture before converting it for the
/// screen: deinterlacing, and bringing HDR or wide-gamut pictures to the SDR
/// BT.709 that displays are driven with.
public struct PictureFilters: Sendable, Hashable, CustomStringConvertible {
    /// How a picture outside SDR BT.709 is brought into it.
    public enum RangeConversion: String, Sendable, Hashable, CaseIterable {
        /// PQ (HDR10): to linear light (100 cd/m2 = 1.0), BT.2020 primaries to
        /// BT.709, Hable's curve with no desaturation, the BT.709 curve.
        case pq = "tonemap PQ->SDR hable"
        /// Hybrid log-gamma, through the same operator as PQ.
        case hlg = "tonemap HLG->SDR hable"
        /// BT.2020 primaries with an SDR curve: the gamut mapped to BT.709 in
        /// linear light, no tone mapping.
        case wideGamut = "BT.2020->BT.709"

        /// The conversion a picture of `colour` needs; nil for SDR BT.709/BT.601.
        public init?(_ colour: ColourDescription) {
            switch colour.transfer {
            case .pq: self = .pq
            case .hlg: self = .hlg
            case .sdr:
                guard colour.wideGamut else { return nil }
                self = .wideGamut
            }
        }
    }

    /// bwdif at this rate; nil when the picture is not deinterlaced.
    public var deinterlace: Deinterlacing.Rate?
    public var rangeConversion: RangeConversion?

    public static let none = PictureFilters()

    public init(deinterlace: Deinterlacing.Rate? = nil, rangeConversion: RangeConversion? = nil) {
        self.deinterlace = deinterlace
        self.rangeConversion = rangeConversion
    }

    /// What a picture of `colour`, scanned as `fieldOrder`, gets from a
    /// player that deinterlaces as `deinterlacing` says.
    public init(colour: ColourDescription, fieldOrder: FieldOrder, deinterlacing: Deinterlacing) {
        self.init(deinterlace: deinterlacing.fieldOrder(deinterlacing: fieldOrder) == nil ? nil : deinterlacing.rate,
                  rangeConversion: RangeConversion(colour))
    }

    public var isNone: Bool { self == .none }

    /// "off", "bwdif frame" or "bwdif field".
    public var deinterlaceDescription: String { deinterlace.map { "bwdif \($0.rawValue)" } ?? "off" }

    /// "none" or the conversion's name ("tonemap PQ->SDR hable").
    public var rangeDescription: String { rangeConversion?.rawValue ?? "none" }

    /// The filters applied, "bwdif field, tonemap PQ->SDR hable"; "none".
    public var description: String {
        let parts = [deinterlace.map { _ in deinterlaceDescription }, rangeConversion?.rawValue].compactMap { $0 }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
