/// Turns a button line's raw edges into presses: active-low inversion,
/// debouncing and long-press timing, with no I/O, so it can be tested with
/// synthetic edges. The GPIO source feeds it kernel events and calls
/// `advance(to:)` when `nextDeadline` passes.
///
/// Debounce rule: a new level counts once the line has stayed at it for
/// `debounce` with no further edge, so a burst of bounces (say 10 edges in
/// 5 ms) is one change, reported `debounce` after its last edge.
///
/// Not thread-safe: a value owned by one button's thread. Times are
/// nanoseconds on one monotonic clock.
public struct ButtonDecoder: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Which logical edge acts (after `activeLow`).
        public var edge: Edge
        /// Pressed means the line reads low.
        public var activeLow: Bool
        public var debounceNanoseconds: UInt64
        /// 0: no long press; else a press held this long runs the long action
        /// (at that moment, not on release) and its release runs nothing.
        public var longPressNanoseconds: UInt64

        public init(edge: Edge = .rising, activeLow: Bool = false, debounceMilliseconds: Int = 20, longPressMilliseconds: Int = 0) {
            self.edge = edge
            self.activeLow = activeLow
            debounceNanoseconds = UInt64(max(0, debounceMilliseconds)) * 1_000_000
            longPressNanoseconds = UInt64(max(0, longPressMilliseconds)) * 1_000_000
        }
    }

    public enum Edge: String, Sendable, CaseIterable {
        /// Act when pressed.
        case rising
        /// Act when released.
        case falling
        /// Act on both.
        case both
    }

    /// What a button did.
    public enum Output: Sendable, Equatable {
        /// Run the button's action.
        case action
        /// Run the button's long action.
        case longAction
    }

    public let settings: Settings
    /// Last level the edges say the line is at, as "pressed".
    private var rawPressed: Bool
    private var lastEdge: UInt64
    /// The debounced state.
    public private(set) var isPressed: Bool
    private var pressedAt: UInt64 = 0
    private var longFired = false

    /// - Parameters:
    ///   - lineIsHigh: the line's level when watching starts (read once).
    ///   - now: the time of that reading.
    public init(settings: Settings, lineIsHigh: Bool, at now: UInt64) {
        self.settings = settings
        rawPressed = lineIsHigh != settings.activeLow
        isPressed = rawPressed
        lastEdge = now
        // Already held when watching starts: not a press; wait for a release.
        longFired = true
    }

    /// The next time `advance(to:)` has work: a level settling, or a press
    /// becoming long. nil when idle.
    public var nextDeadline: UInt64? {
        if rawPressed != isPressed { return lastEdge &+ settings.debounceNanoseconds }
        if isPressed, settings.longPressNanoseconds > 0, !longFired { return pressedAt &+ settings.longPressNanoseconds }
        return nil
    }

    /// A kernel edge event: the line went high (`rising`) or low at `time`.
    public mutating func edge(rising: Bool, at time: UInt64) -> [Output] {
        var outputs = advance(to: time)
        rawPressed = rising != settings.activeLow
        lastEdge = max(lastEdge, time)
        if settings.debounceNanoseconds == 0 { outputs += advance(to: time) }
        return outputs
    }

    /// Settles whatever is due by `time`, in the order it fell due.
    public mutating func advance(to time: UInt64) -> [Output] {
        var outputs: [Output] = []
        while let deadline = nextDeadline, deadline <= time {
            if rawPressed != isPressed {
                isPressed = rawPressed
                isPressed ? pressed(at: deadline, into: &outputs) : released(into: &outputs)
            } else {
                longFired = true
                outputs.append(.longAction)
            }
        }
        return outputs
    }

    private mutating func pressed(at time: UInt64, into outputs: inout [Output]) {
        pressedAt = time
        longFired = false
        // With a long press the short action waits for the release, since
        // only then is it known that the press was short.
        if settings.longPressNanoseconds == 0, settings.edge != .falling { outputs.append(.action) }
    }

    private mutating func released(into outputs: inout [Output]) {
        if settings.longPressNanoseconds > 0 {
            if !longFired { outputs.append(.action) }
        } else if settings.edge != .rising {
            outputs.append(.action)
        }
        longFired = false
    }
}
