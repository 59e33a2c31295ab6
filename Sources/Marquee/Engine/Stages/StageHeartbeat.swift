import Synchronization

/// What one stage's thread is doing, for the health check (`Player.health`):
/// how many steps it has finished, since when it has been inside the step
/// it is running (an output's or a decoder's I/O, or a lock), and until
/// when it sleeps. Written by the stage's thread around each step; read by
/// whoever checks health. A stage that is inside one step for long, or
/// that sleeps past its own deadline, does not answer.
///
/// Thread-safe (a Mutex): one writer, any number of readers.
final class StageHeartbeat: Sendable {
    struct Record: Sendable {
        var steps = 0
        var busySince: HostTime?
        /// The deadline of the wait the stage is in; nil while it waits for its signal only.
        var sleepsUntil: HostTime?
        /// The stage says it has work scheduled and nothing is expected of it
        /// before its deadline: a frame due later (a still picture up, the
        /// next frame's time), the last frame running its time.
        var hasWorkScheduled = false
    }

    let name: String
    private let record = Mutex(Record())

    init(name: String) { self.name = name }

    var snapshot: Record { record.withLock { $0 } }

    /// The stage's thread enters a step.
    func begin(at now: HostTime) {
        record.withLock {
            $0.busySince = now
            $0.sleepsUntil = nil
        }
    }

    /// The step returned `wake`.
    func end(_ wake: StageWake) {
        record.withLock {
            $0.steps += 1
            $0.busySince = nil
            $0.sleepsUntil = if case .at(let deadline) = wake { deadline } else { nil }
        }
    }

    /// Set by the stage itself, at the end of its step.
    func setWorkScheduled(_ scheduled: Bool) {
        record.withLock { $0.hasWorkScheduled = scheduled }
    }
}
