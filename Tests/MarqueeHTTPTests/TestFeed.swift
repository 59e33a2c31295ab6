import MarqueeCore
import MarqueeHTTP
import Synchronization

/// An event feed that gives `events` one by one, `spacing` apart, then
/// either ends or stays idle until closed; it records its `close()`.
final class TestFeed: HTTPEventFeed {
    private struct State {
        var events: [String]
        var closes = 0
    }

    private let state: Mutex<State>
    private let spacing: Duration
    private let endsAfterEvents: Bool
    private let closeSignal = WakeSignal()

    init(events: [String], spacing: Duration = .milliseconds(50), endsAfterEvents: Bool) {
        state = Mutex(State(events: events))
        self.spacing = spacing
        self.endsAfterEvents = endsAfterEvents
    }

    /// How many times `close()` was called.
    var closes: Int { state.withLock { $0.closes } }

    func next(timeout: Duration) -> EventFeedResult {
        let clock = MonotonicClock()
        let (isClosed, event) = state.withLock { ($0.closes > 0, $0.events.first) }
        if isClosed { return .end }
        if event == nil && endsAfterEvents { return .end }
        // Wait for the event's turn, or the whole timeout when there is none; a close ends the wait.
        clock.wait(for: closeSignal, until: clock.now() + (event == nil ? timeout : spacing))
        return state.withLock { state in
            if state.closes > 0 { return .end }
            guard let event = state.events.first else { return .idle }
            state.events.removeFirst()
            return .event(event)
        }
    }

    func close() {
        state.withLock { $0.closes += 1 }
        closeSignal.raise()
    }
}
