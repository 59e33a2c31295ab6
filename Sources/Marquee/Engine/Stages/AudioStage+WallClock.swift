import MarqueeCore
import MarqueeFFmpeg

/// What the audio stage keeps to follow a wall schedule.
struct WallSound {
    var controller = DriftController()
    let resampler: DriftResampler
    /// Off the schedule by more than resampling mends: the next buffer is moved onto it.
    var mustMove = false
    /// A resampling failure is said once.
    var failureReported = false
    /// Timeline seconds through which input was written, counted in sample
    /// frames: containers that keep milliseconds (Matroska) round each
    /// buffer's time, and a steering read from those would see the rounding.
    private var through: Double?

    init(format: AudioFormat) {
        resampler = DriftResampler(format: format)
    }

    /// A schedule followed afresh (or none): nothing learnt still holds.
    mutating func restart() {
        controller.reset()
        newSound()
    }

    /// Counts `audio` as written and says through where, in timeline
    /// seconds: on from the last count while the buffer's own time agrees
    /// within rounding; from its own time after a hole, a jump or a start.
    mutating func written(_ audio: TimelineAudio) -> Double {
        let length = audio.buffer.duration.seconds, end = audio.timeline + length
        if let through, abs(through + length - end) < AudioStage.tolerance {
            self.through = through + length
        } else {
            through = end
        }
        return through ?? end
    }

    /// The device starts from nothing (a jump): the drift learnt is the
    /// device's and still holds; what the filter held is of the old sound.
    mutating func newSound() {
        controller.restartReadings()
        resampler.reset()
        mustMove = false
        through = nil
    }
}

/// Sound on a wall schedule (`QueuePlayer.followWallClock`): the picture's
/// clock is the wall's, and sound follows it. When the device holds
/// nothing (a start, a jump, after standing for silence or running dry)
/// the first audio is put where the schedule wants it heard: waited for,
/// with silence before it, or with its late part left out. From then on
/// the device's own pace is trimmed by resampling by a few hundred parts
/// per million (`DriftController`, `DriftResampler`): a sound card whose
/// crystal runs off the wall clock never turns into a jump or a gap.
extension AudioStage {
    /// Off the schedule by more than this, resampling at its bound would
    /// take most of a minute: the sound is moved instead (a stall).
    static let wallMoveThreshold = 0.05

    enum WallPlacement {
        case write(AudioBuffer)
        case wait(until: HostTime)
        /// All of it is late.
        case drop
    }

    /// Where `buffer` goes on the wall schedule: as it is while the device
    /// plays on; placed when the device holds nothing or the sound went far off.
    func placeOnWall(_ audio: TimelineAudio, _ buffer: AudioBuffer, schedule: WallSchedule) -> WallPlacement {
        let (delay, at) = output.delay()
        let idle = delay == .zero
        guard idle || wallSound.mustMove else { return .write(buffer) }
        // Its first frame is heard after what the device holds.
        let heardAt = at + delay
        let wall = engine.wallSeconds(at: heardAt)
        guard let due = engine.wallDue(of: audio.segment, at: audio.timeline, schedule: schedule, near: wall)?.due else {
            return .write(buffer)
        }
        let early = due - wall
        // Waiting beats a long run of silence: the device starts just before it is due.
        let margin = Self.feedMargin.secondsDouble
        if idle, early > margin { return .wait(until: heardAt + .nanoseconds(Int64(((early - margin) * 1e9).rounded()))) }
        let frames = Int((abs(early) * Double(buffer.format.sampleRate)).rounded())
        if early < 0, frames >= buffer.frameCount { return .drop }
        if wallSound.mustMove { engine.stats.update { $0.audioWallMoves += 1 } }
        wallSound.mustMove = false
        wallSound.controller.restartReadings()
        if early < 0 { return .write(buffer.droppingFirst(frames: frames)) }
        let silence = [UInt8](repeating: 0, count: frames * buffer.format.bytesPerFrame)
        return .write(AudioBuffer(pts: buffer.pts - buffer.format.duration(ofFrames: frames), format: buffer.format, bytes: silence + buffer.bytes))
    }

    /// `buffer` resampled by the ratio the controller wants now; as it is
    /// if libswresample fails (said once), the device's pace then rules.
    func resampledOntoWall(_ buffer: AudioBuffer) -> AudioBuffer {
        do {
            return try wallSound.resampler.process(buffer, ratio: wallSound.controller.ratio)
        } catch {
            if !wallSound.failureReported {
                wallSound.failureReported = true
                engine.post(.audioResamplingFailed(error))
            }
            return buffer
        }
    }

    /// After a write: `heard` (timeline seconds) is what the device plays at
    /// host time `at`. Its offset from the schedule steers the resampling,
    /// and goes into the stats; one too large to steer away moves the sound.
    func followWall(_ schedule: WallSchedule, heard: Double, at: HostTime, in segment: Segment) {
        // Just after an item starts, the sound heard is still the item before's: read at a later write.
        guard heard >= segment.timelineStart else { return }
        let wall = engine.wallSeconds(at: at)
        guard let due = engine.wallDue(of: segment, at: heard, schedule: schedule, near: wall)?.due else { return }
        let offset = wall - due
        if abs(offset) > Self.wallMoveThreshold {
            wallSound.mustMove = true
            return
        }
        wallSound.controller.update(offset: offset, at: at)
        engine.stats.recordAudioWallOffset(offset * 1000, correctionPpm: wallSound.controller.learntDrift * 1e6)
    }
}
