import Glibc
import MarqueeCore
import Synchronization

/// Sound through libasound: a playback PCM opened by name (`default`,
/// `hw:0,0`, `plughw:...`), in the device's native rate and a sample format
/// and channel count it takes, reported as `format` so the pipeline's
/// libswresample converts (and downmixes 5.1 on a stereo device) to it.
///
/// The audio clock comes from the device: `delay()` is `snd_pcm_status`'s
/// delay with its CLOCK_MONOTONIC timestamp (or `snd_pcm_delay` while not
/// running), never an estimate of buffering.
///
/// When the device is missing or stops working (cannot be opened, ENODEV
/// after an unplug), playback does not stop: an `.unavailable` event names the
/// device and the call, the output plays into a stand-in that consumes audio
/// in real time and reports its delay like a device (so the master clock is
/// the monotonic clock and video runs on), and the device is reopened every
/// `retryInterval`. Underruns and suspends are recovered in place (see
/// `ALSAPlayback`).
///
/// Pause uses `snd_pcm_pause` where the hardware can; elsewhere it drops the
/// buffer and writes the unheard part again on resume. Volume and mute are
/// the pipeline's software gain; no mixer is touched.
///
/// Threading: as `AudioOutput`: `write`, `pause`, `resume`, `discard`,
/// `drain` on the audio thread; `delay` and `statistics` from any thread. The
/// PCM is non-blocking and only used under the lock, which is never held
/// while sleeping.
public final class ALSAAudioOutput: AudioOutput, Sendable {
    public let configuration: Configuration
    /// The device's format (or `configuration.standInFormat` if it could not
    /// be opened at start); fixed for the output's life.
    public let format: AudioFormat
    private let clock: any HostClock
    private let onEvent: @Sendable (Event) -> Void
    private let opener: PCMOpener
    private let playback: Mutex<ALSAPlayback>

    /// Opens `configuration.device`, or, if it cannot be opened now, reports
    /// `.unavailable` through `onEvent` and starts on the stand-in, retrying.
    /// Never fails: a kiosk plays its video whether or not the sound card is there.
    /// - Parameters:
    ///   - clock: where waits sleep and the stand-in runs; CLOCK_MONOTONIC
    ///     when nil (device timestamps are only believed on that clock).
    ///   - onEvent: told about opening, losing, regaining and recovering the
    ///     device, on the thread where it happened.
    public convenience init(_ configuration: Configuration, clock: (any HostClock)? = nil,
                            onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        // Cannot throw: with requireDevice false an open failure is reported, not thrown.
        try! self.init(configuration, clock: clock, onEvent: onEvent, opener: Self.openPCM, requireDevice: false)
    }

    /// Opens `configuration.device` now, or throws: for callers that would
    /// rather fail than play without sound. Later losses are handled as above.
    /// - Throws: `ALSAError` naming the device and the first call that failed.
    public static func open(_ configuration: Configuration, clock: (any HostClock)? = nil,
                            onEvent: @escaping @Sendable (Event) -> Void = { _ in }) throws(ALSAError) -> ALSAAudioOutput {
        try ALSAAudioOutput(configuration, clock: clock, onEvent: onEvent, opener: openPCM, requireDevice: true)
    }

    static let openPCM: PCMOpener = { name, request throws(ALSAError) in
        try PCMHandle.open(name: name, request: request)
    }

    /// The designated initialiser, with the opener as a seam for tests.
    init(_ configuration: Configuration, clock: (any HostClock)?, onEvent: @escaping @Sendable (Event) -> Void,
         opener: @escaping PCMOpener, requireDevice: Bool) throws(ALSAError) {
        let clock = clock ?? MonotonicClock()
        var device: (any PCMDevice)?
        var failure: ALSAError?
        do {
            device = try opener(configuration.device, configuration.initialRequest)
        } catch {
            if requireDevice { throw error }
            failure = error
        }
        let parameters = device?.parameters
        let format = parameters?.format ?? configuration.standInFormat
        self.configuration = configuration
        self.format = format
        self.clock = clock
        self.onEvent = onEvent
        self.opener = opener
        playback = Mutex(ALSAPlayback(format: format, configuration: configuration, device: device,
                                      error: failure, now: clock.now()))
        if let parameters { onEvent(.opened(device: configuration.device, parameters: parameters)) }
        if let failure { onEvent(.unavailable(failure, retryInterval: configuration.retryInterval)) }
    }

    /// Counters and the device's parameters, as of now.
    public var statistics: Statistics { playback.withLock { $0.statistics } }
    public var underruns: Int { playback.withLock { $0.statistics.underruns } }

    /// A device: a pause between items drains it and lets it stand instead
    /// of writing silence a period at a time.
    public var stopsForSilence: Bool { true }

    /// Whether a PCM is open (false while playing into the stand-in).
    public var isConnected: Bool { playback.withLock { $0.device != nil } }

    /// The negotiated ring buffer length (the configured one while the device is missing).
    public var bufferDuration: Duration {
        playback.withLock { $0.statistics.parameters?.bufferDuration } ?? configuration.bufferDuration
    }

    // MARK: AudioOutput

    /// Writes `buffer`, sleeping on the clock while the device buffer is full
    /// (waking when a period of room is free). Device errors are recovered or
    /// turn into the stand-in, never thrown: the picture must not stop for sound.
    public func write(_ buffer: AudioBuffer) throws {
        precondition(buffer.format == format, "write \(buffer.format) to a \(format) output")
        stallIfAsked()
        let bytesPerFrame = format.bytesPerFrame
        let total = buffer.frameCount
        buffer.bytes.withUnsafeBytes { all in
            var done = 0
            while done < total {
                let rest = UnsafeRawBufferPointer(rebasing: all[(done * bytesPerFrame)...])
                let (step, events) = playback.withLock { playback in
                    var events: [Event] = []
                    let step = playback.write(rest, frames: total - done, now: clock.now(), opener: opener, events: &events)
                    return (step, events)
                }
                events.forEach(onEvent)
                switch step {
                case .wrote(let frames): done += frames
                case .wait(let deadline): clock.sleep(until: deadline)
                case .again: continue
                }
            }
        }
    }

    /// How long the last sample written takes to be heard, and the host time
    /// that was true at (the device's timestamp of its reading where it has one).
    public func delay() -> (delay: Duration, at: HostTime) {
        let (frames, at) = playback.withLock { $0.delay(clock: clock) }
        return (.nanoseconds(Int64(Int128(frames) * 1_000_000_000 / Int128(format.sampleRate))), at)
    }

    /// `snd_pcm_pause(1)` where the hardware can, else drop keeping the unheard audio.
    public func pause() { locked { $0.pause(now: $1, events: &$2) } }

    /// Continues where `pause` stopped, without losing or repeating audio.
    public func resume() { locked { $0.resume(now: $1, events: &$2) } }

    /// `snd_pcm_drop` + `snd_pcm_prepare`: the delay becomes 0.
    public func discard() { locked { $0.discard(now: $1, events: &$2) } }

    /// `snd_pcm_drain`: blocks (sleeping on the clock) until everything
    /// written has been heard, then prepares the device for more. While
    /// paused it waits for `resume` or `discard`.
    public func drain() throws {
        while true {
            let (next, events) = playback.withLock { playback in
                var events: [Event] = []
                let next = playback.drain(now: clock.now(), events: &events)
                return (next, events)
            }
            events.forEach(onEvent)
            guard let next else { return }
            clock.sleep(until: next)
        }
    }

    // MARK: Internals

    private func locked(_ body: (inout ALSAPlayback, HostTime, inout [Event]) -> Void) {
        let events = playback.withLock { playback in
            var events: [Event] = []
            body(&playback, clock.now(), &events)
            return events
        }
        events.forEach(onEvent)
    }

    /// The `TestStall` hook: sleeps the audio thread once, outside the lock.
    private func stallIfAsked() {
        guard let stall = configuration.testStall else { return }
        let after = Int(Int128(stall.after.nanoseconds) * Int128(format.sampleRate) / 1_000_000_000)
        guard playback.withLock({ $0.takeStall(after: after) }) else { return }
        let start = clock.now()
        clock.sleep(until: start + stall.duration)
        let end = clock.now()
        playback.withLock { $0.recordStall(from: start, to: end) }
        onEvent(.testStall(from: start, to: end))
    }
}
