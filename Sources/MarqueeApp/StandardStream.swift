import Glibc

/// Text written straight to standard output or error with write(2), not
/// through stdio's buffer: a status line, a reply or a diagnostic is out
/// when the call returns, as the boot log and the tests that read it need.
public enum StandardStream {
    case output
    case error

    /// Writes all of `text`, retrying short and interrupted writes; a
    /// closed or broken stream drops it (nowhere left to report that).
    public func write(_ text: String) {
        let descriptor = self == .output ? STDOUT_FILENO : STDERR_FILENO
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
