import Dispatch
import Synchronization

/// Status events as JSON lines: `{"event":"status",...}` every `interval`,
/// plus whatever the host posts (`{"event":"item","item":2,...}`), for a
/// supervisor that watches the player through a pipe.
///
/// Thread-safe. The timer runs on a private queue; lines go through the
/// shared `LineWriter`, so they never split a reply.
public final class StatusEventStream: Sendable {
    private let target: any PlaybackTarget
    private let writer: LineWriter
    private let timer = Mutex<TimerBox?>(nil)

    public init(target: any PlaybackTarget, writer: LineWriter) {
        self.target = target
        self.writer = writer
    }

    /// Starts (or restarts) periodic status lines; `interval` in seconds, 0 stops them.
    public func setInterval(_ interval: Double) {
        let source: (any DispatchSourceTimer)? = interval > 0 ? DispatchSource.makeTimerSource(queue: DispatchQueue(label: "marquee.status-events")) : nil
        if let source {
            source.schedule(deadline: .now() + interval, repeating: interval)
            source.setEventHandler { [self] in post(ControlEvent(.status, status: target.status)) }
            source.resume()
        }
        let old = timer.withLock { current in
            defer { current = source.map(TimerBox.init) }
            return current
        }
        old?.timer.cancel()
    }

    /// Writes `event` as its JSON line.
    public func post(_ event: ControlEvent) {
        writer.write(event.line)
    }

    public func stop() { setInterval(0) }
}

/// `@unchecked Sendable`: dispatch sources are thread-safe to cancel, and
/// the box is only kept to cancel it.
private final class TimerBox: @unchecked Sendable {
    let timer: any DispatchSourceTimer
    init(_ timer: any DispatchSourceTimer) { self.timer = timer }
}
