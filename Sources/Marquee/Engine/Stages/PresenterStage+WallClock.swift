import MarqueeCore

/// Frames timed to the wall clock (`QueuePlayer.followWallClock`): each
/// frame is due when the wall schedule shows its item at its time, read
/// through CLOCK_REALTIME mapped onto the host clock afresh at every step;
/// the master clock is set from that, so sound and observers follow the
/// picture. Off the schedule by more than `correctionThreshold` (the
/// start, a clock step, a stall), the presenter asks once for a jump to
/// where the schedule will be when the jump is done, and keeps the last
/// frame up meanwhile.
extension PresenterStage {
    /// Beyond this, a frame is not waited for or dropped towards: the
    /// playlist jumps (a frame or two off is FrameTiming's to mend).
    static let correctionThreshold = 0.2
    /// How far ahead of the wall clock a jump aims, at the least and at the most.
    static let shortestCorrectionLead = 0.3
    static let longestCorrectionLead = 5.0

    enum WallTiming {
        case presentAt(HostTime)
        case waitUntil(HostTime)
        /// Dropped: late, or superseded by a jump asked for.
        case skip
    }

    /// When the wall schedule wants `frame` up, and its item's place in the playlist.
    func wallDue(of frame: TimelineFrame, schedule: WallSchedule, near wall: Double) -> (due: Double, index: Int)? {
        engine.wallDue(of: frame.segment, at: frame.timeline, schedule: schedule, near: wall)
    }

    /// nil for an item the schedule does not cover (its own clock times it).
    func wallTiming(of frame: TimelineFrame, schedule: WallSchedule, now: HostTime) -> WallTiming? {
        let wallNow = engine.wallSeconds(at: now)
        guard let due = wallDue(of: frame, schedule: schedule, near: wallNow)?.due else { return nil }
        engine.clock.set(position: frame.timeline + (wallNow - due), at: now, serial: frame.serial, fromDevice: false)
        let lead = due - wallNow
        if isOffSchedule(lead: lead, frame: frame, schedule: schedule, wallNow: wallNow), correctionAllowed(serial: frame.serial, now: now) {
            correct(schedule, wallNow: wallNow, now: now)
            return .skip
        }
        let refresh = output?.refreshInterval?.secondsDouble
        let isLast = if case .media = engine.videoQueue.first { false } else { true }
        // The wall clock may be slewed: read it again at least every second.
        switch FrameTiming.decide(pts: due, duration: frame.duration, clock: wallNow, rate: 1, refreshInterval: refresh,
                                  isLastQueued: isLast, waitLimit: FrameTiming.maximumWait) {
        case .drop:
            engine.stats.update { $0.framesDropped += 1 }
            noteDrop(at: frame.timeline)
            return .skip
        case .present(let wait):
            let margin = (refresh ?? 0.002) / 2
            let early = output?.handoverLead.secondsDouble ?? 0
            if wait > margin + early { return .waitUntil(now + .nanoseconds(Int64((wait - margin - early) * 1e9))) }
            return .presentAt(now + .nanoseconds(Int64(max(0, wait - margin) * 1e9)))
        }
    }

    /// Whether the picture is off the schedule by more than the threshold:
    /// this frame is that late; or, first after a start, due later than a
    /// jump would take; or the frame up now is not due yet by that much (the
    /// wall clock went back). A frame early only because the one up runs
    /// its time (a still picture's seconds) is simply waited for.
    private func isOffSchedule(lead: Double, frame: TimelineFrame, schedule: WallSchedule, wallNow: Double) -> Bool {
        if lead < -Self.correctionThreshold { return true }
        if local.firstAfterStart { return lead > wallCorrectionLead + Self.correctionThreshold }
        guard let last = local.last, last.frame.serial == frame.serial,
              let lastDue = wallDue(of: last.frame, schedule: schedule, near: wallNow)?.due else { return false }
        return wallNow < lastDue - Self.correctionThreshold
    }

    /// One jump at a time: not while the last one's first frame is not up,
    /// nor again on the serial it made unless a second has passed.
    private func correctionAllowed(serial: Int, now: HostTime) -> Bool {
        guard let last = wallCorrection else { return true }
        guard let made = last.serial else { return now - last.asked > .seconds(Self.longestCorrectionLead) }
        return serial != made || now - last.asked > .seconds(1)
    }

    private func correct(_ schedule: WallSchedule, wallNow: Double, now: HostTime) {
        let target = schedule.position(at: wallNow + wallCorrectionLead)
        engine.stats.update { $0.wallCorrections += 1 }
        wallCorrection = (now, nil)
        if case .restarted(let serial) = engine.send(.jump(toItem: target.index, at: MediaTime(seconds: target.offset, preferredTimescale: 90_000))) {
            wallCorrection = (now, serial)
        }
    }

    /// After a frame is up: its item's place in the playlist, how far from
    /// the schedule it is in milliseconds, and the wall time it went up at
    /// (nil outside wall-clock sync); the first frame of a jump also says
    /// how long the jump took, for the next one's aim.
    func wallOffset(of frame: TimelineFrame, shownAt display: HostTime) -> (index: Int, offsetMs: Double, wallTime: Double)? {
        guard let schedule = wallSchedule else { return nil }
        let wall = engine.wallSeconds(at: display)
        guard let (due, index) = wallDue(of: frame, schedule: schedule, near: wall) else { return nil }
        if let correction = wallCorrection, correction.serial == frame.serial, local.firstAfterStart {
            let took = (display - correction.asked).secondsDouble
            wallCorrectionLead = min(max(took * 1.5, Self.shortestCorrectionLead), Self.longestCorrectionLead)
        }
        return (index, (wall - due) * 1000, wall)
    }
}
