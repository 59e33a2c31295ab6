import Synchronization

/// One presented frame, for the presentation log (tests and `--stats`).
public struct PresentationRecord: Sendable, Codable {
    /// Index of the item in the order items were played (0 = first).
    public let item: Int
    public let pass: Int
    /// The frame's time in its item, seconds.
    public let pts: Double
    /// Host time it became visible, seconds on the monotonic clock.
    public let displayTime: Double
    /// Audio clock minus frame time at display, milliseconds (nil without audio).
    public let avOffsetMs: Double?
    public let checksum: UInt32
    /// In wall-clock sync: the item's place in the playlist, and when the
    /// frame became visible minus when the wall schedule wanted it,
    /// milliseconds (nil otherwise).
    public var playlistIndex: Int?
    public var wallOffsetMs: Double?
    /// In wall-clock sync: when it became visible on the wall clock, seconds
    /// since 1970, so the logs of screens with clocks kept together compare.
    public var wallTime: Double?
}

/// A transition between loop passes or playlist items, as presented.
public struct SeamRecord: Sendable, Codable {
    public let fromItem: Int
    public let toItem: Int
    /// Extra time the last frame before the seam stayed up beyond its own
    /// duration, milliseconds: 0 for a perfect seam.
    public let gapMs: Double
    /// Audio sample frames written in the 100 ms either side of the seam.
    public let audioFramesAcross: Int
    /// What a viewer saw around the seam (half a second of timeline either
    /// side): frames dropped, and the longest any frame stayed up beyond its
    /// own duration and a refresh, milliseconds.
    public var framesDropped = 0
    public var longestHoldMs = 0.0

    init(fromItem: Int, toItem: Int, gapMs: Double, audioFramesAcross: Int, framesDropped: Int) {
        self.fromItem = fromItem
        self.toItem = toItem
        self.gapMs = gapMs
        self.audioFramesAcross = audioFramesAcross
        self.framesDropped = framesDropped
    }
}

/// Counters the pipeline keeps where things happen. Thread-safe. Memory is
/// bounded: offsets go into a fixed histogram and the logs keep the newest
/// `logLimit` entries, so weeks of playback do not grow it.
public final class PlaybackStats: Sendable {
    public struct Snapshot: Sendable, Codable {
        public var framesPresented = 0
        public var framesDropped = 0
        public var decodeErrors = 0
        public var endNotifications = 0
        public var audioFramesWritten = 0
        /// Times the audio device ran dry (`AudioOutput.underruns`).
        public var underruns = 0
        /// Audio buffers a device error kept from being written (the clock
        /// ran on without them).
        public var audioWriteErrors = 0
        public var avOffsetP50Ms: Double?
        public var avOffsetP99Ms: Double?
        public var avOffsetMaxMs: Double?
        /// In wall-clock sync: |display time - the wall schedule's| over the
        /// frames presented (`[sync]`, docs/sync.md).
        public var wallOffsetP50Ms: Double?
        public var wallOffsetP99Ms: Double?
        public var wallOffsetMaxMs: Double?
        /// Seeks made to get back onto the wall schedule (the first at the start).
        public var wallCorrections = 0
        /// In wall-clock sync: |when the sound is heard - the wall schedule's|,
        /// read after each write to the device.
        public var audioWallOffsetP50Ms: Double?
        public var audioWallOffsetP99Ms: Double?
        public var audioWallOffsetMaxMs: Double?
        /// How much longer (+) or shorter the sound is played to stay on the
        /// wall clock, parts per million: the device's drift as learnt (+ for
        /// a device that runs fast).
        public var audioCorrectionPpm: Double?
        /// Times the sound was moved onto the schedule (silence put in or
        /// audio left out) with the device playing: it was off by more than
        /// resampling mends (a stall). Starts of the device are not counted.
        public var audioWallMoves = 0
        public var seams: [SeamRecord] = []
        /// libavcodec's decoder of the current item's video ("h264").
        public var decoder: String?
        /// What decodes it now: "vaapi", "software" (or "test-fault").
        public var hwdec: String?
        /// Times the software decoder, on slice threads alone, fell behind
        /// and was given frame threads (`DecodePace`).
        public var decoderFrameThreadsAdded = 0
        /// Items (or passes) whose video went from hardware to software.
        public var hwdecFallbacks = 0
        /// Hardware frames copied to CPU memory because the output could not
        /// scan them out (`DMABufStorage.download`).
        public var framesDownloaded = 0
        /// Sample frames of silence written where an audio stream left the
        /// timeline empty (a late start, a hole, an early end).
        public var audioFramesPadded = 0
        /// Times a network item went away and was waited for, and the
        /// attempts made to open it again (the successful ones included).
        public var sourceOutages = 0
        public var sourceRetries = 0
        /// Times playback of a network item waited for its buffer to fill
        /// again after running dry (with `automaticallyWaitsToMinimizeStalling`),
        /// and the seconds it waited in all.
        public var stalls = 0
        public var stalledSeconds = 0.0
        /// How the picture on screen is read and shown: size, pixel aspect,
        /// orientation, colour ("720x480, pixel aspect 8:9, upright, limited BT.601").
        public var picture: String?
    }

    private struct State: Sendable {
        var snapshot = Snapshot()
        /// |A-V offset| at each frame with audio.
        var avOffsets = OffsetHistogram()
        /// |display time - wall schedule| at each frame, in wall-clock sync.
        var wallOffsets = OffsetHistogram()
        var audioWallOffsets = OffsetHistogram()
        var log: [PresentationRecord] = []
    }

    private let state = Mutex(State())
    /// Keep a presentation log at all (tests, `--stats` with a log)?
    public let keepsLog: Bool
    public let logLimit: Int

    init(keepsLog: Bool = false, logLimit: Int = 200_000) {
        self.keepsLog = keepsLog
        self.logLimit = logLimit
    }

    func recordPresented(_ record: PresentationRecord) {
        state.withLock { state in
            state.snapshot.framesPresented += 1
            if let offset = record.avOffsetMs { state.avOffsets.record(offset) }
            if let offset = record.wallOffsetMs { state.wallOffsets.record(offset) }
            guard keepsLog else { return }
            if state.log.count >= logLimit { state.log.removeFirst(state.log.count / 2) }
            state.log.append(record)
        }
    }

    /// The sound's offset from the wall schedule after a write, and the correction then in force.
    func recordAudioWallOffset(_ milliseconds: Double, correctionPpm: Double) {
        state.withLock { state in
            state.audioWallOffsets.record(milliseconds)
            state.snapshot.audioCorrectionPpm = correctionPpm
        }
    }

    func update(_ body: (inout Snapshot) -> Void) {
        state.withLock { body(&$0.snapshot) }
    }

    func recordSeam(_ seam: SeamRecord) {
        state.withLock { state in
            if state.snapshot.seams.count >= 10_000 { state.snapshot.seams.removeFirst(5_000) }
            state.snapshot.seams.append(seam)
        }
    }

    /// Adds to the newest seam what happened after it (drops, holds).
    func updateLastSeam(_ body: (inout SeamRecord) -> Void) {
        state.withLock { state in
            guard let last = state.snapshot.seams.indices.last else { return }
            body(&state.snapshot.seams[last])
        }
    }

    public var snapshot: Snapshot {
        state.withLock { state in
            var snapshot = state.snapshot
            if state.avOffsets.count > 0 {
                snapshot.avOffsetP50Ms = state.avOffsets.percentile(0.50)
                snapshot.avOffsetP99Ms = state.avOffsets.percentile(0.99)
                snapshot.avOffsetMaxMs = state.avOffsets.maximum
            }
            if state.wallOffsets.count > 0 {
                snapshot.wallOffsetP50Ms = state.wallOffsets.percentile(0.50)
                snapshot.wallOffsetP99Ms = state.wallOffsets.percentile(0.99)
                snapshot.wallOffsetMaxMs = state.wallOffsets.maximum
            }
            if state.audioWallOffsets.count > 0 {
                snapshot.audioWallOffsetP50Ms = state.audioWallOffsets.percentile(0.50)
                snapshot.audioWallOffsetP99Ms = state.audioWallOffsets.percentile(0.99)
                snapshot.audioWallOffsetMaxMs = state.audioWallOffsets.maximum
            }
            return snapshot
        }
    }

    /// The presentation log, oldest first (empty unless `keepsLog`).
    public var presentationLog: [PresentationRecord] { state.withLock { $0.log } }
}

/// Magnitudes of an offset in 0.1 ms bins up to 1 s (the last bin takes the
/// rest), for percentiles without keeping every sample.
struct OffsetHistogram: Sendable {
    private var bins = [Int](repeating: 0, count: 10_001)
    private(set) var maximum = 0.0
    private(set) var count = 0

    mutating func record(_ milliseconds: Double) {
        let magnitude = abs(milliseconds)
        bins[min(Int(magnitude * 10), bins.count - 1)] += 1
        maximum = max(maximum, magnitude)
        count += 1
    }

    func percentile(_ fraction: Double) -> Double {
        let rank = Int((Double(count) * fraction).rounded(.up))
        var seen = 0
        for (index, binCount) in bins.enumerated() {
            seen += binCount
            if seen >= rank { return Double(index + 1) / 10 }
        }
        return Double(bins.count) / 10
    }
}
