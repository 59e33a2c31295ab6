/// Whether the player's threads make progress, sampled at one instant: what
/// a service manager's watchdog needs (`Liveness` decides from a series of
/// these). Taken by `Player.health()`.
public struct PlayerHealth: Sendable, Equatable {
    /// One stage's thread (`source`, `present`, `audio`).
    public struct Stage: Sendable, Equatable {
        public var name: String
        /// Steps finished since the player was made.
        public var steps: Int
        /// Since when the thread has been inside the step it is running (an
        /// output's or a decoder's I/O, a lock); nil while it waits.
        public var busySince: HostTime?
        /// The deadline of the wait it is in; nil while it waits only for its signal (or runs).
        public var sleepsUntil: HostTime?

        public init(name: String, steps: Int, busySince: HostTime? = nil, sleepsUntil: HostTime? = nil) {
            self.name = name
            self.steps = steps
            self.busySince = busySince
            self.sleepsUntil = sleepsUntil
        }
    }

    /// Why no progress is expected of the player now: it is idle on purpose.
    public enum Rest: String, Sendable, Equatable {
        case paused
        /// No current item: the playlist is empty, or waited for.
        case nothingToPlay
        /// Time stands still while a network item's read-ahead fills.
        case buffering
        /// A network item went away and is tried again on its schedule.
        case waitingForSource
        /// The presenter has its next frame, or the last one's end, due later:
        /// a still picture is up, or the next frame's time has not come.
        case frameScheduled
    }

    /// When the sample was taken, on the player's host clock.
    public var time: HostTime
    public var stages: [Stage]
    /// Frames put on the display so far.
    public var framesPresented: Int
    /// Sample frames written to the sound device so far.
    public var audioFramesWritten: Int
    /// A start, seek or item change whose first frame is not on screen yet:
    /// the source stage's steps (opening, reading, decoding) are its progress.
    public var starting: Bool
    public var rest: Rest?

    public init(time: HostTime, stages: [Stage], framesPresented: Int, audioFramesWritten: Int, starting: Bool = false, rest: Rest? = nil) {
        self.time = time
        self.stages = stages
        self.framesPresented = framesPresented
        self.audioFramesWritten = audioFramesWritten
        self.starting = starting
        self.rest = rest
    }

    func steps(of name: String) -> Int { stages.first { $0.name == name }?.steps ?? 0 }
}

extension Engine {
    /// The stages' heartbeats and the progress counters, now.
    func health() -> PlayerHealth {
        let now = configuration.hostClock.now()
        let records = heartbeats.map { (name: $0.name, record: $0.snapshot) }
        let (playing, hasItem, buffering, waiting, starting) = state.withLock {
            ($0.playing, $0.queue.current != nil, $0.buffering, $0.waitingForSource, $0.completedSerial < $0.serial)
        }
        let scheduled = records.first { $0.name == "present" }?.record.hasWorkScheduled ?? false
        let rest: PlayerHealth.Rest? = if !playing {
            .paused
        } else if !hasItem {
            .nothingToPlay
        } else if buffering {
            .buffering
        } else if waiting {
            .waitingForSource
        } else if scheduled {
            .frameScheduled
        } else {
            nil
        }
        let counts = stats.snapshot
        return PlayerHealth(time: now, stages: records.map {
            PlayerHealth.Stage(name: $0.name, steps: $0.record.steps, busySince: $0.record.busySince, sleepsUntil: $0.record.sleepsUntil)
        }, framesPresented: counts.framesPresented, audioFramesWritten: counts.audioFramesWritten, starting: starting, rest: rest)
    }
}
