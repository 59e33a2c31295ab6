import Dispatch
import FoundationEssentials
import Marquee
import Synchronization

/// Tells the service manager (systemd with `Type=notify`, `WatchdogSec=`)
/// how `marquee play` is doing, in sd_notify(3)'s messages: `READY=1` once
/// the first picture (the splash, or the first frame) is on the display or
/// the player has settled into waiting for files, a display or a stream; `STATUS=`
/// saying what plays and what it waits for; `RELOADING=1` and `READY=1`
/// around a reload; `STOPPING=1`; and `WATCHDOG=1` at half the manager's
/// interval, only while `Liveness` finds every stage making progress or
/// idle on purpose, never from a timer alone.
///
/// Thread-safe: messages go out in order from one serial queue; the state
/// is behind a Mutex.
final class ServiceNotifier: @unchecked Sendable {
    // @unchecked: the socket and the liveness check are used on `queue` only.
    private let socket: NotifySocket
    private let queue = DispatchQueue(label: "marquee.notify")
    /// `WATCHDOG_USEC`: the manager restarts the player after this long without a ping.
    let watchdogInterval: Duration?
    private let state = Mutex(State())
    /// Ticks at half `watchdogInterval` on `queue`, once `startWatchdog` schedules it.
    private let timer: (any DispatchSourceTimer)?
    /// The player the watchdog checks, from `startWatchdog` to `stopping`.
    private let watched = Mutex<Player?>(nil)
    private var liveness: Liveness?
    /// The reason the last check failed, so a stall is said once.
    private var stall: String?

    /// What a service waits for, said in `STATUS=`.
    enum Wait: Int, Comparable {
        case display, files, stream

        static func < (a: Wait, b: Wait) -> Bool { a.rawValue < b.rawValue }
    }

    private struct State {
        var ready = false
        var stopping = false
        /// "playing NAME", "paused: NAME", "nothing to play".
        var activity = ""
        var waits: [Wait: String] = [:]
        var lastProblem: String?

        var status: String { (waits.sorted { $0.key < $1.key }.map(\.value) + [activity]).filter { !$0.isEmpty }.joined(separator: "; ") }
    }

    /// Nil when the player was not started by a manager that listens.
    static func fromEnvironment(_ environment: ServiceEnvironment = .current) -> ServiceNotifier? {
        if let problem = environment.problem { Diagnostics.error(problem) }
        guard let path = environment.socketPath else { return nil }
        do {
            return ServiceNotifier(socket: try NotifySocket(path: path), watchdog: environment.watchdog)
        } catch {
            Diagnostics.error("\(error); systemd is not told when the player is ready")
            return nil
        }
    }

    private init(socket: NotifySocket, watchdog: Duration?) {
        self.socket = socket
        watchdogInterval = watchdog
        let queue = queue
        timer = watchdog.map { _ in DispatchSource.makeTimerSource(queue: queue) }
        timer?.setEventHandler { [weak self] in
            guard let self, let player = watched.withLock({ $0 }) else { return }
            check(player.health())
        }
        // Resumed unscheduled (it never fires until `startWatchdog` schedules
        // it): libdispatch traps on releasing a source that is still suspended,
        // as it would be when the player fails before its watchdog starts.
        timer?.resume()
    }

    /// The first picture is up, or the player waits on purpose: `READY=1`, once.
    func ready() {
        let message = state.withLock { state -> String? in
            guard !state.ready, !state.stopping else { return nil }
            state.ready = true
            return "READY=1\nSTATUS=\(state.status)"
        }
        if let message { send(message) }
    }

    /// What plays now ("playing NAME", "paused: NAME", "nothing to play").
    func setActivity(_ activity: String) {
        update { $0.activity = activity }
    }

    /// Starts (with a line for `STATUS=`) or ends (nil) a wait. A wait is
    /// a settled state: it makes the service ready.
    func setWaiting(_ wait: Wait, _ line: String?) {
        update { $0.waits[wait] = line }
        if line != nil { ready() }
    }

    private func update(_ change: (inout State) -> Void) {
        let message = state.withLock { state -> String? in
            let before = state.status
            change(&state)
            return state.ready && !state.stopping && state.status != before ? "STATUS=\(state.status)" : nil
        }
        if let message { send(message) }
    }

    /// Before the configuration is read again (`ExecReload=`'s SIGHUP, or `reload`).
    func reloading() {
        send("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock().now().nanoseconds / 1000)")
    }

    /// The reload is done (applied or refused).
    func reloaded() {
        let status = state.withLock { $0.status }
        send("READY=1\nSTATUS=\(status)")
    }

    /// The player is stopping: the last message; the watchdog stops with it.
    func stopping() {
        state.withLock { $0.stopping = true }
        watched.withLock { $0 = nil }
        timer?.cancel()
        send("STOPPING=1")
        queue.sync {}
    }

    /// Pings the watchdog at half its interval while `player` is alive by
    /// `Liveness` (a stage may spend up to that half inside one step).
    func startWatchdog(_ player: Player) {
        guard let interval = watchdogInterval, let timer else { return }
        let tick = interval / 2
        watched.withLock { $0 = player }
        queue.async { [self] in
            liveness = Liveness(stepLimit: tick)
            // Checked once now, so the first tick compares with the start.
            _ = liveness?.check(player.health())
        }
        timer.schedule(deadline: .now() + .nanoseconds(Int(tick.nanoseconds)), repeating: .nanoseconds(Int(tick.nanoseconds)),
                       leeway: .milliseconds(10))
    }

    /// On `queue`: one watchdog tick.
    private func check(_ health: PlayerHealth) {
        guard var liveness else { return }
        let verdict = liveness.check(health)
        self.liveness = liveness
        switch verdict {
        case .alive:
            if stall != nil { Diagnostics.error("watchdog: the player makes progress again") }
            stall = nil
            deliver("WATCHDOG=1")
        case .stalled(let reason):
            if stall == nil {
                Diagnostics.error("watchdog: \(reason); no ping, so systemd restarts the player if this goes on")
            }
            stall = reason
        }
    }

    private func send(_ message: String) {
        queue.async { [self] in deliver(message) }
    }

    /// On `queue`. A failure is said once while it repeats.
    private func deliver(_ message: String) {
        do throws(NotifyError) {
            try socket.send(message)
        } catch {
            let line = "\(error)"
            let repeated = state.withLock { state -> Bool in
                defer { state.lastProblem = line }
                return state.lastProblem == line
            }
            if !repeated { Diagnostics.error("\(line); systemd was not told '\(message.prefix { $0 != "\n" })'") }
        }
    }
}
