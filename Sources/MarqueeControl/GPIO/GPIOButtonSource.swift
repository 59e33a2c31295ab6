import Dispatch
import FoundationEssentials
import Glibc
import MarqueeCore
import Synchronization

/// A button on a GPIO line as a control source: a thread waits for the
/// line's edges, a `ButtonDecoder` turns them into presses, and each press
/// runs the button's command through the executor.
///
/// Opening the chip or line happens in `start()`, which throws a `GPIOError`
/// (missing chip, busy line) so the caller can report it and carry on with
/// its other controls. An error while running is reported through `log`
/// once and ends this button only.
public final class GPIOButtonSource: Sendable {
    public struct Button: Sendable, Equatable {
        public var chip: String
        public var line: Int
        public var settings: ButtonDecoder.Settings
        public var action: ControlCommand
        public var longAction: ControlCommand?

        public init(chip: String, line: Int, settings: ButtonDecoder.Settings, action: ControlCommand, longAction: ControlCommand? = nil) {
            self.chip = chip
            self.line = line
            self.settings = settings
            self.action = action
            self.longAction = longAction
        }
    }

    public let button: Button
    private let executor: CommandExecutor
    private let log: @Sendable (String) -> Void
    private let trace: (@Sendable (String) -> Void)?
    private let running = Atomic<Bool>(false)
    /// Raised by `stop()`; the watching thread waits on it beside the line.
    private let stopEvent = Mutex<StopEvent?>(nil)
    /// Signalled once the watching thread has released the line.
    private let released = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - log: receives one line per press ("gpio gpiochip0 line 3: press: toggle")
    ///     and per failure; called on the button's thread.
    ///   - trace: if given, one line per settled level with the raw edges it
    ///     took ("... pressed after 11 edges over 4.2 ms"), to see bounce.
    public init(button: Button, executor: CommandExecutor, log: @escaping @Sendable (String) -> Void,
                trace: (@Sendable (String) -> Void)? = nil) {
        self.button = button
        self.executor = executor
        self.log = log
        self.trace = trace
    }

    /// Requests the line and starts watching it on a new thread.
    /// - Throws: `GPIOError` when the chip cannot be opened or the line requested.
    public func start() throws(GPIOError) {
        let chip = try GPIOChip(button.chip)
        let line = try GPIOLine(chip: chip, offset: button.line, consumer: "marquee")
        let decoder = ButtonDecoder(settings: button.settings, lineIsHigh: try line.isHigh(), at: Self.now())
        let stop = try StopEvent.make(chip: button.chip, line: button.line)
        stopEvent.withLock { $0 = stop }
        running.store(true, ordering: .sequentiallyConsistent)
        // The line moves to the thread; from here only that thread touches it.
        let box = LineBox(line: line, decoder: decoder)
        let name = "marquee.gpio\(button.line)"
        NamedThread.start(String(name.prefix(15))) { [self] in
            watch(box, stop: stop)
            box.line = nil
            released.signal()
        }
    }

    /// Stops watching and returns once the line is released (at once if it never started).
    public func stop() {
        guard let stop = stopEvent.withLock({ $0 }) else { return }
        stop.raise()
        released.wait()
        released.signal()
    }

    /// True while the thread watches the line.
    public var isRunning: Bool { running.load(ordering: .sequentiallyConsistent) }

    private func watch(_ box: LineBox, stop: StopEvent) {
        defer { running.store(false, ordering: .sequentiallyConsistent) }
        var decoder = box.decoder
        guard let line = box.line else { return }
        let place = "gpio \(button.chip) line \(button.line)"
        // Raw edges since the debounced level last changed: (count, first, last) times.
        var burst: (count: Int, first: UInt64, last: UInt64)?
        do {
            while true {
                let now = Self.now()
                // Only a pending debounce or long press has a deadline; otherwise wait for an edge or stop.
                let wait = decoder.nextDeadline.map { $0 > now ? $0 - now : 0 }
                var outputs: [ButtonDecoder.Output] = []
                let woke = try line.wait(nanoseconds: wait, stop: stop)
                if woke == .stopped { return }
                if woke == .edge {
                    // Every queued edge first: a late thread must not settle
                    // a level that later queued bounces would have undone.
                    repeat {
                        let edge = try line.readEdge()
                        let time = Self.plausible(edge.nanoseconds)
                        let wasPressed = decoder.isPressed
                        // Without debounce this edge is the change; with it, a change
                        // here is the previous burst settling before this edge.
                        let immediate = button.settings.debounceNanoseconds == 0
                        if immediate { burst = ((burst?.count ?? 0) + 1, burst?.first ?? time, time) }
                        outputs += decoder.edge(rising: edge.rising, at: time)
                        if decoder.isPressed != wasPressed { report(&burst, pressed: decoder.isPressed, place: place) }
                        if !immediate { burst = ((burst?.count ?? 0) + 1, burst?.first ?? time, time) }
                    } while try line.wait(nanoseconds: 0, stop: stop) == .edge
                }
                let wasPressed = decoder.isPressed
                outputs += decoder.advance(to: Self.now())
                if decoder.isPressed != wasPressed { report(&burst, pressed: decoder.isPressed, place: place) }
                for output in outputs {
                    let command = output == .longAction ? (button.longAction ?? button.action) : button.action
                    executor.handle(ControlRequest(command: command)) { reply in
                        switch reply.outcome {
                        case .success: log("\(place): \(output == .longAction ? "long press" : "press"): \(command)")
                        case .failure(let error): log("\(place): \(command): \(error.message)")
                        }
                    }
                }
            }
        } catch {
            log("\(error); this button stops, other controls go on")
        }
    }

    private func report(_ burst: inout (count: Int, first: UInt64, last: UInt64)?, pressed: Bool, place: String) {
        defer { burst = nil }
        guard let trace, let edges = burst else { return }
        let span = Double(edges.last - edges.first) / 1e6
        trace("\(place): \(pressed ? "pressed" : "released") after \(edges.count) edge\(edges.count == 1 ? "" : "s") over \(String(span, places: 1)) ms")
    }

    /// Monotonic time in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The kernel's event time if it is on our clock (kernels before 5.7
    /// stamp events with the wall clock); otherwise now.
    static func plausible(_ eventTime: UInt64) -> UInt64 {
        let now = now()
        let tolerance: UInt64 = 10_000_000_000
        return eventTime <= now && now - eventTime < tolerance ? eventTime : now
    }
}

/// Hands the line and decoder to the watching thread, which releases the
/// line (sets it to nil) when it is done.
/// `@unchecked Sendable`: created before the thread starts and used only by it afterwards.
private final class LineBox: @unchecked Sendable {
    var line: GPIOLine?
    let decoder: ButtonDecoder

    init(line: GPIOLine, decoder: ButtonDecoder) {
        self.line = line
        self.decoder = decoder
    }
}
