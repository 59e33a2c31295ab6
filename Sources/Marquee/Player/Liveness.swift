import FoundationEssentials

/// Decides, at each tick of a service manager's watchdog, whether the
/// player is alive, from a series of `PlayerHealth` samples: every stage's
/// thread answers (none has been inside one step, or asleep past its own
/// deadline, for longer than `stepLimit`), and either progress was made
/// since the previous sample (a frame presented, sound written, or, while
/// a start has shown nothing yet, a source step) or the player is idle on
/// purpose (`PlayerHealth.Rest`: paused, nothing to play, buffering,
/// waiting for a source, a frame due later).
///
/// Not a timer: a stalled decoder (the source inside a step), a stuck page
/// flip (the presenter inside `present`), a deadlock (threads inside their
/// steps, waiting on locks) or a lost wake-up (playing, every stage waiting,
/// nothing shown) each make it say `.stalled`. Pure: the samples carry
/// their time, so it is tested on a virtual clock.
public struct Liveness: Sendable {
    public enum Verdict: Sendable, Equatable {
        case alive
        /// What is wrong, in one line.
        case stalled(String)
    }

    /// The longest a stage may spend inside one step, or asleep past its
    /// deadline, and still count as answering. A step that reads a device
    /// or decodes a large picture takes well under a second; opening a
    /// network source is bounded by its open timeout.
    public let stepLimit: Duration
    private var previous: PlayerHealth?

    public init(stepLimit: Duration) { self.stepLimit = stepLimit }

    /// Compares `health` with the previous sample (the first one is only
    /// checked for stages that do not answer).
    public mutating func check(_ health: PlayerHealth) -> Verdict {
        defer { previous = health }
        for stage in health.stages {
            if let since = stage.busySince, health.time - since > stepLimit {
                return .stalled("the \(stage.name) stage has been inside one step for \(String((health.time - since).secondsDouble, places: 1)) s")
            }
            if stage.busySince == nil, let deadline = stage.sleepsUntil, health.time - deadline > stepLimit {
                return .stalled("the \(stage.name) stage has not woken up "
                                + "\(String((health.time - deadline).secondsDouble, places: 1)) s after its deadline")
            }
        }
        guard let previous else { return .alive }
        if health.framesPresented > previous.framesPresented || health.audioFramesWritten > previous.audioFramesWritten { return .alive }
        if health.starting, health.steps(of: "source") > previous.steps(of: "source") { return .alive }
        if health.rest != nil { return .alive }
        return .stalled("playing, but no frame presented and no sound written for \(String((health.time - previous.time).secondsDouble, places: 1)) s")
    }
}
