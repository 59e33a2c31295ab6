import Synchronization

/// The master clock of playback, in timeline seconds: a reading taken at a
/// host time and extrapolated from there at the playback rate (ffplay's
/// `Clock`). The audio writer sets it from the device delay after every write;
/// with no audio, the presenter anchors it to the monotonic clock.
///
/// Thread-safe: written by one stage, read by others.
public final class SyncClock: Sendable {
    private struct Reading {
        var position: Double
        var at: HostTime
        var rate: Double
        var paused: Bool
        /// The seek generation the reading belongs to; a reading from an older
        /// generation is invalid, so nobody syncs to pre-seek audio.
        var serial: Int
        var isSet: Bool
        /// The reading came from a sound device, whose clock drifts from
        /// the host's; otherwise it runs on the host's clock alone.
        var fromDevice: Bool
    }

    private let state = Mutex(Reading(position: 0, at: HostTime(nanoseconds: 0), rate: 1, paused: false, serial: 0, isSet: false,
                                       fromDevice: false))

    public init() {}

    /// Records that timeline position `position` is heard/shown at host time `at`.
    /// - Parameter fromDevice: the reading is a sound device's (it drifts
    ///   from the host clock, so an extrapolation must not be trusted long).
    /// - Returns: true when this is the first reading of `serial` (the clock starts).
    @discardableResult
    public func set(position: Double, at: HostTime, serial: Int, fromDevice: Bool) -> Bool {
        state.withLock {
            let starts = !$0.isSet || $0.serial != serial
            $0.fromDevice = fromDevice
            $0.position = position
            $0.at = at
            $0.serial = serial
            $0.isSet = true
            return starts
        }
    }

    /// The timeline position at host time `now`, or nil if the clock has no
    /// reading for `serial` yet.
    public func position(at now: HostTime, serial: Int) -> Double? {
        state.withLock { reading in
            guard reading.isSet, reading.serial == serial else { return nil }
            if reading.paused { return reading.position }
            return reading.position + (now - reading.at).secondsDouble * reading.rate
        }
    }

    /// Whether the reading of `serial` came from a sound device (see `set`).
    public func followsDevice(serial: Int) -> Bool {
        state.withLock { $0.isSet && $0.serial == serial && $0.fromDevice }
    }

    /// Freezes (or thaws) the clock at its position at `now`.
    public func setPaused(_ paused: Bool, at now: HostTime) {
        state.withLock { reading in
            guard reading.paused != paused else { return }
            if paused, reading.isSet {
                reading.position += (now - reading.at).secondsDouble * reading.rate
            }
            reading.at = now
            reading.paused = paused
        }
    }

    /// Changes the speed from `now` on, keeping the position continuous.
    public func setRate(_ rate: Double, at now: HostTime) {
        state.withLock { reading in
            if reading.isSet, !reading.paused {
                reading.position += (now - reading.at).secondsDouble * reading.rate
            }
            reading.at = now
            reading.rate = rate
        }
    }

    /// Forgets the reading (seek, stop): the next `set` starts it again.
    public func invalidate() {
        state.withLock { $0.isSet = false }
    }
}
