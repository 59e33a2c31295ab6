import CMicroHTTPD
import Glibc
import Synchronization

/// Where libmicrohttpd's own messages go (MHD_OPTION_EXTERNAL_LOGGER;
/// without one MHD writes them to stderr). While the daemon starts they are
/// kept, since MHD_start_daemon returns only NULL and these lines are its
/// reasons; afterwards each goes to the server's log, one line at a time.
///
/// Thread-safe: MHD calls it on any of its threads.
final class MHDLog: Sendable {
    private let kept = Mutex<[String]?>([])
    private let forward: @Sendable (String) -> Void

    init(forward: @escaping @Sendable (String) -> Void) {
        self.forward = forward
    }

    /// Stops keeping lines. Returns those kept since init when the daemon
    /// did not start; when it did, they are not reasons, and go to the log.
    func endStart(started: Bool) -> [String] {
        let lines = kept.withLock { lines in
            defer { lines = nil }
            return lines ?? []
        }
        if started { lines.forEach(write) }
        return started ? [] : lines
    }

    private func write(_ line: String) {
        let isKept = kept.withLock { lines in
            lines?.append(line)
            return lines != nil
        }
        if !isKept { forward("http: libmicrohttpd: \(line)") }
    }

    /// The C logger; `cls` is this object, unretained (the daemon's owner
    /// holds it until MHD_stop_daemon has returned).
    static let callback: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments else { return }
        // MHD's messages are one short sentence; a longer one is cut, not lost.
        var buffer = [UInt8](repeating: 0, count: 512)
        let written = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, $0.count, format, arguments) }
        }
        guard written >= 0 else { return }
        var line = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        while line.last?.isNewline == true { line.removeLast() }
        Unmanaged<MHDLog>.fromOpaque(cls).takeUnretainedValue().write(line)
    }
}

