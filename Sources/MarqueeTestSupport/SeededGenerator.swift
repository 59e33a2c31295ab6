/// A linear congruential generator: the same numbers for the same seed, on
/// every machine and run, so a test that draws at random fails the same way
/// twice.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }

    /// A double in [0, upTo).
    public mutating func next(upTo: Double) -> Double {
        Double(next() >> 11) / Double(1 << 53) * upTo
    }
}
