import Glibc

/// A system call on the play log that failed: which call, on which path, and
/// errno. Prints as `play log PATH: CALL: MESSAGE`, e.g.
/// `play log /var/lib/marquee/plays.jsonl: write: No space left on device`.
public struct PlayLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C call (`open`, `write`, `fdatasync`, `ftruncate`, ...).
    public let call: String
    public let path: String
    /// errno after the call; 0 where the call did not set one (a short write).
    public let code: Int32

    public init(call: String, path: String, code: Int32) {
        self.call = call
        self.path = path
        self.code = code
    }

    public var description: String {
        "play log \(path): \(call): \(code == 0 ? "wrote only part of the line" : String(cString: strerror(code)))"
    }
}
