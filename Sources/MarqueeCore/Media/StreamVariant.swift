/// One variant of an adaptive stream (an HLS multivariant playlist's
/// `#EXT-X-STREAM-INF`, which libavformat makes a program): its declared
/// bit rate, its tracks, and its picture size where it has video.
public struct StreamVariant: Sendable, Hashable {
    /// Bits per second, as the playlist declares it (BANDWIDTH).
    public var bitRate: Int
    /// Track ids (stream indexes) of this variant.
    public var tracks: [Int]
    public var width: Int?
    public var height: Int?

    public init(bitRate: Int, tracks: [Int], width: Int? = nil, height: Int? = nil) {
        self.bitRate = bitRate
        self.tracks = tracks
        self.width = width
        self.height = height
    }
}

/// The limits AVPlayerItem's `preferredPeakBitRate` and
/// `preferredMaximumResolution` set on the variant chosen.
public struct VariantPreference: Sendable, Equatable {
    /// Bits per second; 0 for no limit.
    public var peakBitRate: Double
    /// Pixels; nil for no limit.
    public var maximumWidth: Int?
    public var maximumHeight: Int?

    public init(peakBitRate: Double = 0, maximumWidth: Int? = nil, maximumHeight: Int? = nil) {
        self.peakBitRate = peakBitRate
        self.maximumWidth = maximumWidth
        self.maximumHeight = maximumHeight
    }

    /// The variant of highest bit rate within both limits; where none is
    /// within them, the one of lowest bit rate (something still plays). Nil
    /// for fewer than two variants.
    public func choose(from variants: [StreamVariant]) -> StreamVariant? {
        guard variants.count > 1 else { return nil }
        let fitting = variants.filter { variant in
            (peakBitRate <= 0 || Double(variant.bitRate) <= peakBitRate)
                && Self.within(variant.width, maximumWidth) && Self.within(variant.height, maximumHeight)
        }
        return fitting.max { $0.bitRate < $1.bitRate } ?? variants.min { $0.bitRate < $1.bitRate }
    }

    /// An unknown size passes: a variant without video has no picture to limit.
    private static func within(_ value: Int?, _ limit: Int?) -> Bool {
        guard let value, let limit else { return true }
        return value <= limit
    }
}
