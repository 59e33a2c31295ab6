import MarqueeCore

/// What the output plays into while its PCM is missing: a device of the same
/// buffer size that plays in real time on the output's clock and keeps
/// nothing. Writes are paced and `delay` answered exactly as a sound card
/// would, so the audio clock keeps running on the monotonic clock and video
/// goes on; the real device is retried meanwhile.
///
/// Positions are sample frames since the stand-in was made; playback is
/// extrapolated from an anchor moved on every start, resume and refill.
/// A value type, used under the output's lock.
struct StandInDevice {
    let sampleRate: Int64
    let capacity: Int64
    private(set) var written: Int64 = 0
    private(set) var played: Int64 = 0
    private var anchorPlayed: Int64 = 0
    private var anchorTime: HostTime
    private(set) var paused = false
    /// Nothing queued (not started, ran dry, discarded): the position stands still.
    private var idle = true

    init(sampleRate: Int, capacity: Int, now: HostTime) {
        self.sampleRate = Int64(sampleRate)
        self.capacity = Int64(max(1, capacity))
        anchorTime = now
    }

    /// Sample frames queued and not yet played, as of `now`.
    mutating func queued(at now: HostTime) -> Int64 {
        update(at: now)
        return written - played
    }

    /// Queues up to `frames`; returns how many fit.
    mutating func queue(_ frames: Int64, at now: HostTime) -> Int64 {
        update(at: now)
        let count = min(frames, capacity - (written - played))
        guard count > 0 else { return 0 }
        if idle {
            idle = false
            if !paused { anchor(at: now) }
        }
        written += count
        return count
    }

    /// When `frames` more will fit (now, if they do; never while paused).
    func time(whenRoomFor frames: Int64) -> HostTime? {
        let position = written - capacity + min(frames, capacity)
        guard !paused else { return nil }
        if idle || position <= played { return anchorTime }
        let nanoseconds = (Int128(position - anchorPlayed) * 1_000_000_000 + Int128(sampleRate) - 1) / Int128(sampleRate)
        return anchorTime + .nanoseconds(Int64(nanoseconds))
    }

    /// When everything queued will have played (nil while paused).
    func timeWhenEmpty() -> HostTime? { time(whenRoomFor: capacity) }

    mutating func pause(at now: HostTime) {
        update(at: now)
        paused = true
    }

    mutating func resume(at now: HostTime) {
        guard paused else { return }
        paused = false
        anchor(at: now)
    }

    mutating func discard(at now: HostTime) {
        update(at: now)
        written = played
        idle = true
    }

    private mutating func anchor(at now: HostTime) {
        anchorTime = now
        anchorPlayed = played
    }

    private mutating func update(at now: HostTime) {
        guard !paused, !idle else { return }
        let elapsed = Int128(max(0, (now - anchorTime).nanoseconds))
        let position = anchorPlayed + Int64(elapsed * Int128(sampleRate) / 1_000_000_000)
        if position >= written {
            played = written
            idle = true
        } else {
            played = position
        }
    }
}
