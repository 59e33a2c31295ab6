import MarqueeConfig
import Synchronization

/// Lines on stderr from the controls (button presses, reloads, warnings),
/// filtered by `[log] level`. Thread-safe; the level can change on reload.
final class ControlLog: Sendable {
    private let current: Mutex<LogLevel>

    init(level: LogLevel) {
        current = Mutex(level)
    }

    var level: LogLevel {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    func error(_ message: @autoclosure () -> String) { write(.error, message) }
    func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    func info(_ message: @autoclosure () -> String) { write(.info, message) }
    func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private func write(_ level: LogLevel, _ message: () -> String) {
        guard level <= self.level else { return }
        Diagnostics.error(message())
    }
}
