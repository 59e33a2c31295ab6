/// Where decoded pictures go: a KMS plane, a simulated display, PNG files.
///
/// Threading: every method is called on the pipeline's presenter thread only,
/// never concurrently, so an implementation needs no locking of its own state.
public protocol VideoOutput: AnyObject {
    /// Pixel formats `present` takes, best first. The pipeline converts frames
    /// in any other format to the first entry before presenting.
    var acceptedFormats: [PixelFormat] { get }

    /// The display's refresh interval when it has one (a simulated or real
    /// vblank); nil where frames show as soon as they are submitted.
    var refreshInterval: Duration? { get }

    /// Puts `frame` on screen at the first vblank at or after `target` (or at
    /// once if there is no vblank) and returns when it became visible.
    /// The output keeps the frame alive for as long as it may be scanned out.
    /// - Throws: the backend's error; the pipeline logs it, keeps the last
    ///   frame up and goes on with the next frame.
    func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime

    /// How long before `target` the presenter hands a frame over: zero for
    /// a display that commits at once; a display that gathers several
    /// players' pictures before its vblank needs them that much earlier.
    var handoverLead: Duration { get }

    /// Blocks until everything presented is visible (or written), e.g. at the end.
    func flush() throws

    /// The screen's size as pictures are shown on it (after the display's
    /// own rotation), or nil where any size is kept (files). A still
    /// picture larger than this is decoded smaller where its codec can: the
    /// screen cannot show more.
    /// Constant, and read from the source thread.
    var screenSize: PixelSize? { get }
}

extension VideoOutput {
    public var screenSize: PixelSize? { nil }
    public var handoverLead: Duration { .zero }
}

/// A width and height in pixels.
public struct PixelSize: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// Where decoded sound goes: ALSA, a simulated device, a WAV file.
///
/// Threading: called on the pipeline's audio thread only, except `delay`,
/// which the presenter may read concurrently and must be safe to call.
public protocol AudioOutput: AnyObject {
    /// The format `write` takes; the decoder resamples to it.
    var format: AudioFormat { get }

    /// Writes interleaved PCM; blocks while the device buffer is full.
    func write(_ buffer: AudioBuffer) throws

    /// How long the last sample written takes to be heard, and the host time
    /// that figure was taken at. This is the audio clock: the sample being
    /// heard at `at` is (pts of the last sample written) - delay.
    func delay() -> (delay: Duration, at: HostTime)

    /// Stops consuming, keeping what is buffered (pause).
    func pause()
    /// Resumes after `pause`.
    func resume()
    /// Drops everything buffered (seek, stop).
    func discard()
    /// Blocks until everything written has been played (end of playback).
    func drain() throws

    /// Times the device ran dry while playing (a gap was heard), since the
    /// output was made.
    var underruns: Int { get }

    /// When the device will have room to take `frames` sample frames without
    /// `write` blocking: nil when it has room now, or when the output cannot
    /// tell (the default; its `write` then blocks in the device, as ALSA's
    /// does in poll). The audio stage waits for this deadline instead of
    /// blocking, so a simulated device runs under a test executor.
    func roomTime(forFrames frames: Int) -> HostTime?

    /// Whether a pause between items may stop this output (drain what was
    /// written, then write nothing until the next sound) instead of feeding
    /// it silence: true for a device, whose silence sounds the same and
    /// costs no wake-ups; false (the default) for a recording, which must
    /// hold every sample.
    var stopsForSilence: Bool { get }
}

extension AudioOutput {
    public func roomTime(forFrames frames: Int) -> HostTime? { nil }
    public var stopsForSilence: Bool { false }
}
