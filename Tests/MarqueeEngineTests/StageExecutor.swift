@testable import Marquee
import MarqueeTestSupport

/// Steps a player's stage state machines, the same ones its threads run, on
/// one thread and a virtual clock: no threads, no sleeps. At each instant it
/// steps every stage that is due (its deadline passed, its signal raised, or
/// it asked to run again); when none is, it moves the clock to the earliest
/// deadline. An output that "sleeps" (a vblank) moves the clock itself.
/// Optional wake-up latency is seeded, so every run is the same.
final class StageExecutor {
    let clock: VirtualClock
    let player: QueuePlayer
    private var wakes: [StageWake]
    private var latency: (generator: SeededGenerator, upTo: Double)?
    /// Steps taken per stage name: the executor's count of wake-ups.
    private(set) var steps: [String: Int] = [:]
    /// Stages not stepped while named here, as if their thread were blocked
    /// (a source stuck in a network read); their wake-ups wait for release.
    /// Their heartbeats say so: inside a step since they were held.
    var held: Set<String> = [] {
        didSet {
            for heartbeat in player.engine.heartbeats where held.contains(heartbeat.name) && !oldValue.contains(heartbeat.name) {
                heartbeat.begin(at: clock.now())
            }
        }
    }

    /// - Parameter latency: wake-ups land up to this many seconds after their deadline (seeded).
    init(player: QueuePlayer, clock: VirtualClock, latency: (seed: UInt64, upTo: Double)? = nil) {
        self.player = player
        self.clock = clock
        wakes = player.engine.stages.map { _ in .now }
        self.latency = latency.map { (SeededGenerator(seed: $0.seed), $0.upTo) }
    }

    /// A player on `clock` whose stages only this executor runs.
    static func player(_ sources: [String], video: any VideoOutput, audio: (any AudioOutput)?, clock: VirtualClock,
                       loop: LoopMode = .none, passes: Int? = nil, between: PauseBetweenItems = .cut,
                       wallClock: (any WallClock)? = nil) -> QueuePlayer {
        var configuration = PlayerConfiguration(videoOutput: video, audioOutput: audio, hostClock: clock,
                                                keepsPresentationLog: true)
        configuration.betweenItems = between
        if let wallClock { configuration.wallClock = wallClock }
        let player = QueuePlayer(items: sources.map(PlayerItem.init(source:)), configuration: configuration, threaded: false)
        player.loopMode = loop
        player.loopPasses = passes
        return player
    }

    /// Runs until `seconds` of clock time have passed, or until every stage
    /// waits for a signal nobody will raise (playback ended, or paused).
    /// Returns true when it stopped for that reason, false at the time limit.
    @discardableResult
    func run(for seconds: Double) -> Bool {
        let limit = clock.now() + .nanoseconds(Int64(seconds * 1e9))
        let stages = player.engine.stages
        let heartbeats = player.engine.heartbeats
        while clock.now() < limit {
            var stepped = false
            for (index, stage) in stages.enumerated() where isDue(wakes[index], stage) {
                // A stage runs until it waits, as its thread would (an audio
                // stage fills the device), or until a step of it moved the
                // clock (an output's vblank): others, whose deadlines passed
                // meanwhile, go next, late by that much.
                var moved = false
                repeat {
                    steps[stage.name, default: 0] += 1
                    let before = clock.now()
                    // Recorded as its thread records it (`StageThread`), for `Player.health`.
                    heartbeats[index].begin(at: before)
                    wakes[index] = delayed(stage.step(now: before))
                    heartbeats[index].end(wakes[index])
                    moved = clock.now() != before
                } while wakes[index] == .now && !moved
                stepped = true
            }
            if stepped { continue }
            let deadlines = zip(wakes, stages).compactMap { wake, stage -> HostTime? in
                guard !held.contains(stage.name), case .at(let time) = wake else { return nil }
                return time
            }
            guard let next = deadlines.min() else { return true }
            clock.sleep(until: min(next, limit))
        }
        return false
    }

    private func isDue(_ wake: StageWake, _ stage: any EngineStage) -> Bool {
        if held.contains(stage.name) { return false }
        return switch wake {
        case .now: true
        case .at(let deadline): stage.signal.take() || deadline <= clock.now()
        case .signal: stage.signal.take()
        case .stop: false
        }
    }

    private func delayed(_ wake: StageWake) -> StageWake {
        guard case .at(let deadline) = wake, let upTo = latency?.upTo else { return wake }
        let late = latency?.generator.next(upTo: upTo) ?? 0
        return .at(deadline + .nanoseconds(Int64(late * 1e9)))
    }
}
