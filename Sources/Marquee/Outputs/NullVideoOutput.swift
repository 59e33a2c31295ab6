/// A simulated display: it takes frames in any format, shows each on a vblank
/// of a fixed refresh rate and keeps the last one up, the way a KMS plane
/// holds its buffer until the next flip. For headless runs and tests.
///
/// Vblanks tick at `start + k * refreshInterval` (k = 0, 1, 2, ...) on `clock`,
/// where `start` is the clock's time when the output was made.
///
/// Its screen can be switched off and on (`ScreenPowerOutput`): the state
/// is recorded for tests to read; frames presented while off still count.
///
/// Threading: the presenter thread only (see `VideoOutput`).
public final class NullVideoOutput: ScreenPowerOutput {
    private let clock: any HostClock
    /// Time of vblank 0, in the clock's nanoseconds.
    public let start: HostTime
    private let interval: Duration
    /// Index of the vblank the last frame went up on; a flip takes one vblank,
    /// so the next frame cannot go up on the same one.
    private var lastVblank: Int64?

    /// The frame on screen now, nil until the first `present`.
    public private(set) var displayedFrame: VideoFrame?
    /// Frames presented since the output was made.
    public private(set) var presentedFrames = 0
    public private(set) var isScreenOn = true

    /// Formats `present` takes: by default any a decoder produces, shown as
    /// they are; fewer makes the pipeline convert (to measure that cost).
    public let acceptedFormats: [PixelFormat]
    public let screenSize: PixelSize?

    /// - Parameters:
    ///   - clock: where vblanks are timed and `present` sleeps.
    ///   - refreshRate: vblanks per second, from 1 to 1000 (a value outside,
    ///     or NaN, is brought to the nearest end, NaN to 60); the interval is
    ///     rounded to whole nanoseconds.
    ///   - formats: what `present` takes, best first.
    ///   - screenSize: the simulated screen's, for pictures decoded to fit it.
    public init(clock: any HostClock, refreshRate: Double = 60,
                formats: [PixelFormat] = [.yuv420p, .nv12, .yuv420p10, .p010, .xrgb8888, .rgb24],
                screenSize: PixelSize = PixelSize(width: 1920, height: 1080)) {
        acceptedFormats = formats
        self.screenSize = screenSize
        self.clock = clock
        start = clock.now()
        let rate = refreshRate.isNaN ? 60 : min(max(refreshRate, 1), 1000)
        interval = .nanoseconds(Int64((1e9 / rate).rounded()))
    }

    public var refreshInterval: Duration? { interval }

    /// Sleeps on the clock until the first vblank at or after `target` (and after
    /// now, and after the previous frame's vblank), makes `frame` the displayed
    /// frame and returns that vblank's time. Never throws.
    public func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime {
        let earliest = max(target, clock.now())
        var vblank = Self.ceilingDivide(earliest.nanoseconds - start.nanoseconds, interval.nanoseconds)
        vblank = max(vblank, 0)
        if let lastVblank { vblank = max(vblank, lastVblank + 1) }
        let shown = start + .nanoseconds(vblank * interval.nanoseconds)
        clock.sleep(until: shown)
        lastVblank = vblank
        displayedFrame = frame
        presentedFrames += 1
        return shown
    }

    /// Nothing is queued: a frame is visible when `present` returns.
    public func flush() throws {}

    /// Records the state. Never throws.
    public func setScreenPower(_ on: Bool) throws { isScreenOn = on }

    private static func ceilingDivide(_ numerator: Int64, _ denominator: Int64) -> Int64 {
        let quotient = numerator / denominator
        return numerator % denominator > 0 ? quotient + 1 : quotient
    }
}
