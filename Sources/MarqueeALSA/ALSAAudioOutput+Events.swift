import MarqueeCore

extension ALSAAudioOutput {
    /// Something the caller may want to tell the user. Delivered on the thread
    /// that caused it (the audio thread, or the creating thread for the first
    /// open), outside the output's lock.
    public enum Event: Sendable, CustomStringConvertible {
        /// The device opened with these parameters.
        case opened(device: String, parameters: PCMParameters)
        /// The device could not be opened, or stopped working (unplugged:
        /// ENODEV). Audio is consumed in real time without sound, and opening
        /// is retried every `retryInterval`. Reported once per loss, not per retry.
        case unavailable(ALSAError, retryInterval: Duration)
        /// The device opened again after being unavailable.
        case reconnected(device: String, parameters: PCMParameters)
        /// An underrun (EPIPE), a suspend (ESTRPIPE) or a call in the wrong
        /// state (EBADFD) was recovered in place.
        case recovered(ALSAError)
        /// The `TestStall` hook slept the audio thread over this interval.
        @_spi(Testing) case testStall(from: HostTime, to: HostTime)

        public var description: String {
            switch self {
            case .opened(let device, let parameters):
                "audio device \(device): \(parameters.summary)"
            case .unavailable(let error, let retry):
                "audio device \(error); playing without sound, retrying every \(retry.secondsDouble.shortDecimal) s"
            case .reconnected(let device, let parameters):
                "audio device \(device) is back: \(parameters.summary)"
            case .recovered(let error):
                "audio device \(error.device): recovered from "
                    + (error.isSuspended ? "a suspend" : error.isUnderrun ? "an underrun" : "\(error.message)") + " (\(error.call))"
            case .testStall(let from, let to):
                "audio test stall of \(((to - from).secondsDouble * 1000).shortDecimal) ms"
            }
        }
    }

    /// Counters, as of the call. Safe from any thread.
    public struct Statistics: Sendable, Codable {
        public var device: String
        public var connected: Bool
        /// The parameters of the open device (or of the last one that was open).
        public var parameters: PCMParameters?
        /// Sample frames accepted by `write`, by the device or the stand-in.
        public var framesWritten: Int = 0
        public var underruns = 0
        public var suspends = 0
        /// Times the device was found unavailable (at start or lost later).
        public var losses = 0
        public var reconnects = 0
        public var openAttempts = 0
        public var lastError: String?
        /// Where the delay's timestamp came from on the last reading:
        /// "device" (status htstamp) or "host" (CLOCK_MONOTONIC at the call).
        public var timestampSource: String?
        /// Test stalls, as host seconds on the output's clock (the
        /// presentation log's `displayTime` clock); written with the rest.
        @_spi(Testing) public var testStalls: [StallRecord] = []
    }

    @_spi(Testing) public struct StallRecord: Sendable, Codable, Hashable {
        public var startSeconds: Double
        public var endSeconds: Double
    }
}

extension PCMParameters {
    var summary: String {
        "\(format), buffer \(Self.milliseconds(bufferDuration)) ms, period \(Self.milliseconds(periodDuration)) ms"
            + (canPause ? "" : ", no hardware pause")
    }

    private static func milliseconds(_ duration: Duration) -> String {
        (duration.secondsDouble * 1000).rounded().shortDecimal
    }
}

extension Double {
    /// Shortest decimal form: 3 not 3.0, 0.5 as 0.5.
    var shortDecimal: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
