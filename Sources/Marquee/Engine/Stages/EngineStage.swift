import Dispatch
import FoundationEssentials

/// What a stage needs before it can make progress again.
enum StageWake: Equatable, Sendable {
    /// More work is ready: step again at once.
    case now
    /// Step again at this host time, or earlier if the stage's signal is raised.
    case at(HostTime)
    /// Step again only when the signal is raised: input or room in a queue, or a command.
    case signal
    /// The engine stopped; never step again.
    case stop
}

/// One stage of the pipeline as a state machine: `step` does one piece of
/// work (which may be an output's or a decoder's blocking I/O) and says when
/// it needs to run next, but never waits for time or for another stage
/// itself, so the same code runs on a thread (`StageThread`) or under a test
/// executor on a manual clock.
protocol EngineStage: AnyObject {
    /// For logs and thread names.
    var name: String { get }
    /// Raised when something this stage waits for may have changed.
    var signal: WakeSignal { get }
    func step(now: HostTime) -> StageWake
}

/// Runs one stage on its own thread: step, then wait on the stage's signal
/// until the deadline it asked for, through the player's host clock. Each
/// step is recorded in the stage's heartbeat (for `Player.health`).
final class StageThread: @unchecked Sendable {
    // @unchecked: the stage is used by its thread only once started; `done`
    // is a semaphore.
    private let done = DispatchSemaphore(value: 0)

    init(stage: any EngineStage, clock: any HostClock, heartbeat: StageHeartbeat, stall: StageStall?) {
        let name = "marquee.\(stage.name)"
        // Handed over: from here on only the new thread uses the stage.
        nonisolated(unsafe) let stage = stage
        NamedThread.start(name, stackSize: 1 << 20) { [done] in
            Self.run(stage, clock: clock, heartbeat: heartbeat, stall: stall?.stage == stage.name ? stall : nil)
            done.signal()
        }
    }

    private static func run(_ stage: any EngineStage, clock: any HostClock, heartbeat: StageHeartbeat, stall: StageStall?) {
        let started = clock.now()
        var stall = stall
        while true {
            let now = clock.now()
            heartbeat.begin(at: now)
            if let planned = stall, now >= started + planned.after {
                // The test hook: this thread stops inside a step, as a stuck decoder or flip would.
                stall = nil
                clock.sleep(until: now + planned.duration)
            }
            let wake = stage.step(now: clock.now())
            heartbeat.end(wake)
            switch wake {
            case .now: continue
            case .at(let deadline): clock.wait(for: stage.signal, until: deadline)
            case .signal: clock.wait(for: stage.signal, until: nil)
            case .stop: return
            }
        }
    }

    /// Returns once the stage has stopped (after the engine raised its
    /// signal); any number of times (a player stopped, then released).
    func join() {
        done.wait()
        done.signal()
    }
}

/// A stage's thread held inside a step, once, for real: how a test shows
/// that the health check notices a stuck stage (`Player.health`,
/// `Liveness`) and a service manager's watchdog restarts the player.
@_spi(Testing) public struct StageStall: Sendable {
    /// "source", "present" or "audio".
    public var stage: String
    /// After this long since the stage's thread started.
    public var after: Duration
    public var duration: Duration

    public init(stage: String, after: Duration, duration: Duration) {
        self.stage = stage
        self.after = after
        self.duration = duration
    }
}
