import MarqueeCore

/// The operations `ALSAAudioOutput` performs on an open PCM, one per
/// libasound call. `PCMHandle` is the real one; tests put a simulated device
/// behind the same protocol to drive underruns, suspends and unplugging.
///
/// Every method throws `ALSAError` naming the call. The PCM is non-blocking:
/// `write` takes what fits and `drain` returns `-EAGAIN` while draining.
/// Not thread-safe: the output calls it with its lock held.
protocol PCMDevice: AnyObject {
    /// The PCM name it was opened with.
    var name: String { get }
    /// What hw/sw params negotiation settled on.
    var parameters: PCMParameters { get }

    /// Sample frames that can be written now (`snd_pcm_avail`, which also
    /// syncs the hardware pointer).
    func available() throws(ALSAError) -> Int
    /// Writes up to `frames` interleaved sample frames from `bytes`
    /// (`snd_pcm_writei`); returns how many were taken.
    func write(_ bytes: UnsafeRawBufferPointer, frames: Int) throws(ALSAError) -> Int
    /// The state as libasound last saw it (`snd_pcm_state`: no system call for `hw`).
    func state() -> PCMState
    /// Sample frames written and not yet heard (`snd_pcm_delay`); valid while
    /// prepared and paused too, where the kernel's status reports 0.
    func delay() throws(ALSAError) -> Int
    /// State, delay and the time the delay was true at (`snd_pcm_status`);
    /// the delay is meaningful while running or draining.
    func status() throws(ALSAError) -> PCMStatus
    /// `snd_pcm_pause`: only where `parameters.canPause`.
    func setPaused(_ paused: Bool) throws(ALSAError)
    /// `snd_pcm_drop`: stops at once, dropping what is buffered.
    func drop() throws(ALSAError)
    /// `snd_pcm_prepare`: ready for writing again (after drop, drain, underrun).
    func prepare() throws(ALSAError)
    /// `snd_pcm_drain`: plays out what is buffered, then stops (state SETUP).
    /// Non-blocking: `-EAGAIN` means it is draining; watch `status().state`.
    func drain() throws(ALSAError)
    /// `snd_pcm_resume` after a suspend: `-EAGAIN` while the device wakes,
    /// `-ENOSYS` where it cannot (then prepare).
    func resume() throws(ALSAError)
}

/// `snd_pcm_state_t`, by name.
enum PCMState: Sendable, Equatable {
    case open, setup, prepared, running, xrun, draining, paused, suspended, disconnected
    case other(Int32)
}

/// One `snd_pcm_status` reading.
struct PCMStatus: Sendable, Equatable {
    var state: PCMState
    /// Sample frames between the last one written and the one being heard.
    var delayFrames: Int
    /// When the hardware pointer behind `delayFrames` was read, on
    /// CLOCK_MONOTONIC: nil where the device's timestamps cannot be trusted to
    /// be on that clock (then the output takes the host time of the call).
    var timestamp: HostTime?
}

/// What the device and libasound agreed on.
public struct PCMParameters: Sendable, Hashable, Codable {
    public var format: AudioFormat
    /// Ring buffer size, in sample frames.
    public var bufferFrames: Int
    /// Period (interrupt) size, in sample frames.
    public var periodFrames: Int
    /// `snd_pcm_hw_params_can_pause`: the hardware pauses in place.
    public var canPause: Bool
    /// Status timestamps are CLOCK_MONOTONIC readings of the hardware pointer
    /// (a `hw` PCM whose sw params took `SND_PCM_TSTAMP_TYPE_MONOTONIC`).
    public var hasMonotonicTimestamps: Bool

    public init(format: AudioFormat, bufferFrames: Int, periodFrames: Int, canPause: Bool, hasMonotonicTimestamps: Bool) {
        self.format = format
        self.bufferFrames = bufferFrames
        self.periodFrames = periodFrames
        self.canPause = canPause
        self.hasMonotonicTimestamps = hasMonotonicTimestamps
    }

    public var bufferDuration: Duration { .nanoseconds(Int64(bufferFrames) * 1_000_000_000 / Int64(format.sampleRate)) }
    public var periodDuration: Duration { .nanoseconds(Int64(periodFrames) * 1_000_000_000 / Int64(format.sampleRate)) }
}

/// What to ask of the device when opening it.
struct PCMRequest: Sendable, Equatable {
    enum Rate: Sendable, Equatable {
        /// The device's own rate: its only one, else the first of these it
        /// takes without resampling, else the nearest to the first.
        case native(preferred: [Int])
        /// Exactly this rate (libasound's plug layer may resample to it).
        case exact(Int)
    }

    var rate: Rate
    /// Channel count: exact when `exactFormat`, else the nearest the device has.
    var channels: Int
    /// Sample formats in order of preference; with `exactFormat`, only the first.
    var sampleFormats: [SampleFormat]
    /// Reconnecting: the pipeline already converts to one format, so the
    /// device must take exactly that one.
    var exactFormat: Bool
    var bufferDuration: Duration
    var periodDuration: Duration

    /// The request that reopens a device in exactly `format`.
    static func exactly(_ format: AudioFormat, bufferDuration: Duration, periodDuration: Duration) -> PCMRequest {
        PCMRequest(rate: .exact(format.sampleRate), channels: format.channels, sampleFormats: [format.sampleFormat],
                   exactFormat: true, bufferDuration: bufferDuration, periodDuration: periodDuration)
    }
}

/// Opens a PCM by name as asked; the real one is `PCMHandle.open`.
typealias PCMOpener = @Sendable (_ name: String, _ request: PCMRequest) throws(ALSAError) -> any PCMDevice
