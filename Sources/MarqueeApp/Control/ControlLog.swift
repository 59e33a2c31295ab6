import MarqueeConfig
import Synchronization

/// Lines on stderr from the controls (button presses, reloads, warnings),
/// filtered by `[log] level`. Thread-safe; the level can change on reload.
public final class ControlLog: Sendable {
    private let current: Mutex<LogLevel>

    public init(level: LogLevel) {
        current = Mutex(level)
    }

    public var level: LogLevel {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    public func error(_ message: @autoclosure () -> String) { write(.error, message) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private func write(_ level: LogLevel, _ message: () -> String) {
        guard level <= self.level else { return }
        Diagnostics.error(message())
    }
}
