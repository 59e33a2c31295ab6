import Glibc
import Synchronization

/// Writes whole lines to a file descriptor, one line at a time, so replies,
/// events and log lines from several threads never interleave mid-line.
///
/// Thread-safe. A failed write (the reader went away: EPIPE) is dropped,
/// never fatal: the player must keep playing with nobody listening. The
/// process should ignore SIGPIPE for that (`ignoreBrokenPipes()`).
public final class LineWriter: Sendable {
    private let descriptor: Int32
    /// On a terminal, a status line may be drawn with "\r"; clear it first.
    private let clearsLine: Bool
    private let lock = Mutex(())

    public init(descriptor: Int32, clearsTerminalLine: Bool? = nil) {
        self.descriptor = descriptor
        clearsLine = clearsTerminalLine ?? (isatty(descriptor) == 1)
    }

    /// Writes `line` and a line break.
    public func write(_ line: String) {
        let bytes = Array(((clearsLine ? "\r\u{1B}[K" : "") + line + "\n").utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Makes writes to a closed pipe fail with EPIPE instead of killing the process.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
