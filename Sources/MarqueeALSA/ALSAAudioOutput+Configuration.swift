import MarqueeCore

extension ALSAAudioOutput {
    /// What to open and how. Durations are rounded by the device to what it takes.
    public struct Configuration: Sendable, Hashable {
        /// The PCM name: `default`, `hw:0,0`, `plughw:CARD=PCH,DEV=0`, `dmix`, ...
        public var device: String
        /// Ring buffer length: the most audio queued ahead of what is heard
        /// (latency, and the time a stalled writer has before an underrun).
        public var bufferDuration: Duration
        /// Period length: how often the device reports progress and the writer wakes.
        public var periodDuration: Duration
        /// Sample rate to open the device at; nil takes its native rate (its
        /// only rate, else 48 kHz, else 44.1 kHz without resampling in
        /// libasound), and the pipeline's libswresample converts to it.
        public var sampleRate: Int?
        /// Channels to ask for; the nearest the device has is taken (the
        /// pipeline downmixes or upmixes to it).
        public var channels: Int
        /// Sample formats in order of preference; the first the device takes is used.
        public var sampleFormats: [SampleFormat]
        /// While the device is missing, how often to try opening it again.
        public var retryInterval: Duration
        /// Pause with `snd_pcm_pause` where the hardware can; false always
        /// drops and replays the unheard audio (the path of hardware that cannot).
        public var usesHardwarePause: Bool
        /// Test hook, outside the public API: stall the writer once, to force
        /// an underrun (see `TestStall`).
        @_spi(Testing) public var testStall: TestStall?

        public init(device: String = "default", bufferDuration: Duration = .milliseconds(100),
                    periodDuration: Duration = .milliseconds(20), sampleRate: Int? = nil, channels: Int = 2,
                    sampleFormats: [SampleFormat] = [.s16, .s32, .float32], retryInterval: Duration = .seconds(3),
                    usesHardwarePause: Bool = true) {
            self.device = device
            self.bufferDuration = bufferDuration
            self.periodDuration = periodDuration
            self.sampleRate = sampleRate
            self.channels = channels
            self.sampleFormats = sampleFormats
            self.retryInterval = retryInterval
            self.usesHardwarePause = usesHardwarePause
        }

        /// The formats asked for: the defaults when the list is empty.
        private var formats: [SampleFormat] { sampleFormats.isEmpty ? [.s16, .s32, .float32] : sampleFormats }

        /// The format played in while the device cannot be opened at start
        /// (the pipeline's format is fixed once chosen; on reconnection the
        /// device must take it, which any `plug`/`default` PCM does).
        public var standInFormat: AudioFormat {
            AudioFormat(sampleRate: sampleRate ?? ALSAAudioOutput.preferredRates[0], channels: max(channels, 1),
                        sampleFormat: formats[0])
        }

        var initialRequest: PCMRequest {
            PCMRequest(rate: sampleRate.map { .exact($0) } ?? .native(preferred: ALSAAudioOutput.preferredRates),
                       channels: max(channels, 1), sampleFormats: formats, exactFormat: false,
                       bufferDuration: bufferDuration, periodDuration: periodDuration)
        }
    }

    /// A test hook, not for production: once `after` of audio has been
    /// written, the next `write` sleeps `duration` before writing, as if the
    /// audio thread had been starved. With a stall longer than the buffer the
    /// device underruns, which is how board tests force one.
    /// The `marquee` command sets it from `MARQUEE_TEST_STALL_AUDIO_MS` (and
    /// `MARQUEE_TEST_STALL_AUDIO_AFTER_MS`, default 2000).
    @_spi(Testing) public struct TestStall: Sendable, Hashable {
        public var after: Duration
        public var duration: Duration

        public init(after: Duration, duration: Duration) {
            self.after = after
            self.duration = duration
        }
    }

    /// Rates taken without resampling when a device offers several, best first.
    static let preferredRates = [48000, 44100]
    /// How often a blocked write, or a drain, looks again while paused.
    static let pausedPollInterval: Duration = .milliseconds(5)
    /// Longest single sleep while draining, so a device whose timing is off
    /// (or a drain that never completes) is looked at again soon.
    static let drainPollInterval: Duration = .milliseconds(10)
    /// A drain still running this long after the audio should have ended is
    /// stopped with `snd_pcm_drop`.
    static let drainGrace: Duration = .seconds(1)
    /// A device timestamp older than this (or in the future) is not believed;
    /// the host time of the reading is used instead.
    static let timestampTolerance: Duration = .milliseconds(50)
    /// Consecutive failed recoveries (prepare, resume) before the device is
    /// treated as gone and reopened.
    static let recoveryLimit = 8
}
