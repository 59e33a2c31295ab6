import MarqueeCore
import Testing

/// Which variant AVPlayerItem's preferredPeakBitRate and preferredMaximumResolution pick.
struct VariantPreferenceTests {
    static let variants = [
        StreamVariant(bitRate: 1_600_000, tracks: [4, 5], width: 960, height: 540),
        StreamVariant(bitRate: 400_000, tracks: [0, 1], width: 320, height: 180),
        StreamVariant(bitRate: 900_000, tracks: [2, 3], width: 640, height: 360),
    ]

    @Test func theHighestWithinTheLimitsPlays() {
        #expect(VariantPreference().choose(from: Self.variants)?.bitRate == 1_600_000, "no limits: the highest")
        #expect(VariantPreference(peakBitRate: 1_000_000).choose(from: Self.variants)?.bitRate == 900_000)
        #expect(VariantPreference(peakBitRate: 900_000).choose(from: Self.variants)?.bitRate == 900_000, "the limit is inclusive")
        #expect(VariantPreference(maximumWidth: 640, maximumHeight: 360).choose(from: Self.variants)?.bitRate == 900_000)
        #expect(VariantPreference(peakBitRate: 2_000_000, maximumWidth: 400, maximumHeight: 400).choose(from: Self.variants)?.bitRate == 400_000)
    }

    @Test func noneWithinTheLimitsPlaysTheLowest() {
        #expect(VariantPreference(peakBitRate: 100_000).choose(from: Self.variants)?.bitRate == 400_000)
        #expect(VariantPreference(maximumWidth: 100, maximumHeight: 100).choose(from: Self.variants)?.bitRate == 400_000)
    }

    @Test func aSingleStreamHasNoChoice() {
        #expect(VariantPreference(peakBitRate: 1).choose(from: [Self.variants[0]]) == nil)
        #expect(VariantPreference().choose(from: []) == nil)
    }

    @Test func aVariantWithoutVideoIsNotLimitedBySize() {
        let audioOnly = [StreamVariant(bitRate: 64_000, tracks: [0]), StreamVariant(bitRate: 128_000, tracks: [1])]
        #expect(VariantPreference(maximumWidth: 1, maximumHeight: 1).choose(from: audioOnly)?.bitRate == 128_000)
    }
}
