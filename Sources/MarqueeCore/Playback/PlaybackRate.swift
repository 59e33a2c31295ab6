/// The speeds a player plays at, and what becomes of a value outside them.
/// One range for the library, the command line, the configuration file and
/// the control commands, so none accepts a speed the others refuse.
public enum PlaybackRate {
    /// From 1/16 (the time stretcher's smallest step still moves audio
    /// forward) to 16 (beyond it a decoder cannot keep up with any real file).
    public static let range: ClosedRange<Double> = 0.0625...16

    /// `rate` brought into `range`: +infinity and anything above 16 plays at
    /// 16, a positive value below 1/16 at 1/16. Nil for a value that names no
    /// forward speed (zero, negative, NaN): the caller decides what that means.
    public static func clamped(_ rate: Double) -> Double? {
        guard rate > 0 else { return nil }
        return min(max(rate, range.lowerBound), range.upperBound)
    }

    /// `rate` brought into `range` by its size, keeping its sign: -1000
    /// plays backwards at 16. Nil for zero and NaN.
    public static func clampedEitherWay(_ rate: Double) -> Double? {
        guard let speed = clamped(abs(rate)) else { return nil }
        return rate < 0 ? -speed : speed
    }

    /// Whether `rate` is a speed of `range` forwards or backwards.
    public static func isPlayable(_ rate: Double) -> Bool { range.contains(abs(rate)) }

    /// "from 0.0625 to 16", for error messages.
    public static let rangeDescription = "from \(range.lowerBound) to \(Int(range.upperBound))"

    /// "from 0.0625 to 16, or -16 to -0.0625 backwards", for rates that may be negative.
    public static let eitherWayDescription = "\(rangeDescription), or -\(Int(range.upperBound)) to -\(range.lowerBound) backwards"
}
