import Dispatch
import Synchronization

/// A registered observer; pass it to `Player.removeTimeObserver(_:)`.
public final class TimeObserverToken: Sendable, Hashable {
    let id: Int
    init(id: Int) { self.id = id }
    public static func == (lhs: TimeObserverToken, rhs: TimeObserverToken) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Periodic and boundary time observers (AVPlayer's). The presenter reports
/// every presented item time; this decides who fires. A removed observer's
/// closure is dropped at once, so it can never fire again and what it
/// captured is released.
final class TimeObservers: Sendable {
    private enum Kind: Sendable {
        /// Fires at each multiple of the interval, and when playback starts or stops.
        case periodic(interval: Double, nextMultiple: Double?)
        /// Fires when playback crosses one of the times.
        case boundary(times: [Double])
    }

    private struct Observer: Sendable {
        var kind: Kind
        let queue: DispatchQueue
        let callback: @Sendable (MediaTime) -> Void
    }

    private struct State: Sendable {
        var observers: [Int: Observer] = [:]
        var nextID = 0
        var lastTime: Double?
    }

    private let state = Mutex(State())
    /// Where callbacks run when the caller names no queue: a serial queue of
    /// our own, since a headless process may never service the main queue.
    static let defaultQueue = DispatchQueue(label: "marquee.time-observers")
    /// The shortest periodic interval, in seconds: what a zero, negative or
    /// undefined interval becomes, instead of an observer that never rests.
    static let minimumInterval = 0.001

    func addPeriodic(interval: MediaTime, queue: DispatchQueue?, callback: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        let seconds = interval.isNumeric && interval.seconds >= Self.minimumInterval ? interval.seconds : Self.minimumInterval
        return add(Observer(kind: .periodic(interval: seconds, nextMultiple: nil), queue: queue ?? Self.defaultQueue, callback: callback))
    }

    func addBoundary(times: [MediaTime], queue: DispatchQueue?, callback: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        add(Observer(kind: .boundary(times: times.filter(\.isNumeric).map(\.seconds).sorted()), queue: queue ?? Self.defaultQueue, callback: callback))
    }

    private func add(_ observer: Observer) -> TimeObserverToken {
        state.withLock { state in
            state.nextID += 1
            state.observers[state.nextID] = observer
            return TimeObserverToken(id: state.nextID)
        }
    }

    /// Observers registered now.
    var count: Int { state.withLock { $0.observers.count } }

    func remove(_ token: TimeObserverToken) {
        _ = state.withLock { $0.observers.removeValue(forKey: token.id) }
    }

    /// Playback started or stopped at `time`: periodic observers fire once.
    func playbackStateChanged(at time: MediaTime) {
        fire { state in
            state.lastTime = time.seconds
            return state.observers.compactMap { id, observer in
                guard case .periodic(let interval, _) = observer.kind else { return nil }
                state.observers[id]?.kind = .periodic(interval: interval, nextMultiple: Self.multiple(after: time.seconds, interval))
                return (observer, time)
            }
        }
    }

    /// A frame (or audio) at item time `time` was presented in normal playback.
    func presented(_ time: MediaTime) {
        let now = time.seconds
        fire { state in
            let previous = state.lastTime
            state.lastTime = now
            var due: [(Observer, MediaTime)] = []
            for (id, observer) in state.observers {
                switch observer.kind {
                case .periodic(let interval, let next):
                    guard let next else {
                        state.observers[id]?.kind = .periodic(interval: interval, nextMultiple: Self.multiple(after: now, interval))
                        continue
                    }
                    if now >= next - 1e-9 {
                        due.append((observer, time))
                        state.observers[id]?.kind = .periodic(interval: interval, nextMultiple: Self.multiple(after: now, interval))
                    } else if now < next - interval {
                        // Time went backwards (seek, loop): aim at the next multiple from here.
                        state.observers[id]?.kind = .periodic(interval: interval, nextMultiple: Self.multiple(after: now, interval))
                    }
                case .boundary(let times):
                    guard let previous, now > previous else { continue }
                    for boundary in times where boundary > previous && boundary <= now {
                        due.append((observer, MediaTime(seconds: boundary, preferredTimescale: 600)))
                    }
                }
            }
            return due
        }
    }

    /// The time jumped (seek, loop): boundaries are not crossed by a jump.
    func timeJumped(to time: MediaTime) {
        state.withLock { $0.lastTime = time.seconds }
    }

    private func fire(_ select: (inout State) -> [(Observer, MediaTime)]) {
        let due = state.withLock { select(&$0) }
        for (observer, time) in due {
            let callback = observer.callback
            observer.queue.async { callback(time) }
        }
    }

    private static func multiple(after time: Double, _ interval: Double) -> Double {
        ((time / interval + 1e-9).rounded(.down) + 1) * interval
    }
}
