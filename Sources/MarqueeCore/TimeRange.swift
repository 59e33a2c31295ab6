/// A span of media time, modelled on CoreMedia's `CMTimeRange`: it starts at
/// `start` (inclusive) and ends at `end = start + duration` (exclusive).
///
/// A range is valid when both `start` and `duration` are valid and `duration` is
/// not negative; `duration` may be `+infinity` or indefinite (an open-ended live
/// stream). Equality compares `start` and `duration` as `MediaTime`s, so test
/// `isValid` rather than comparing with `.invalid`.
public struct TimeRange: Sendable, Hashable {
    public var start: MediaTime
    public var duration: MediaTime

    public init(start: MediaTime, duration: MediaTime) {
        self.start = start
        self.duration = duration
    }

    /// The range from `start` up to, not including, `end`; invalid if `end` is
    /// before `start`.
    public init(start: MediaTime, end: MediaTime) {
        self.init(start: start, duration: end - start)
    }

    public static let zero = TimeRange(start: .zero, duration: .zero)
    public static let invalid = TimeRange(start: .invalid, duration: .invalid)

    /// `start + duration`, with `MediaTime`'s rules for non-numeric values.
    public var end: MediaTime { start + duration }

    public var isValid: Bool { start.isValid && duration.isValid && duration >= .zero }

    /// Valid with a zero duration (as `CMTIMERANGE_IS_EMPTY`); an invalid range is not empty.
    public var isEmpty: Bool { isValid && duration == .zero }

    /// Whether `start <= time < end`. Only numeric times can be inside a range, and
    /// an invalid range contains nothing.
    public func contains(_ time: MediaTime) -> Bool {
        isValid && time.isNumeric && start <= time && time < end
    }

    /// The overlap of the two ranges. Ranges that do not overlap (including ones
    /// that only touch) give an empty range at the later start; invalid if either
    /// range is invalid.
    public func intersection(_ other: TimeRange) -> TimeRange {
        guard isValid, other.isValid else { return .invalid }
        let lower = max(start, other.start)
        let upper = min(end, other.end)
        guard lower < upper else { return TimeRange(start: lower, duration: .zero) }
        return TimeRange(start: lower, end: upper)
    }

    /// The smallest range covering both, gap included; invalid if either range is invalid.
    public func union(_ other: TimeRange) -> TimeRange {
        guard isValid, other.isValid else { return .invalid }
        return TimeRange(start: min(start, other.start), end: max(end, other.end))
    }
}

extension TimeRange: CustomStringConvertible {
    /// `"[start, end)"` using `MediaTime`'s descriptions, or `"invalid range"`.
    public var description: String {
        isValid ? "[\(start), \(end))" : "invalid range"
    }
}
