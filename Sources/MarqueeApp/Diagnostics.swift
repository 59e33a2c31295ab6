import FoundationEssentials
import Glibc

/// Lines on stderr for a person or a boot log.
public enum Diagnostics {
    /// One line on stderr, prefixed so it is found in a boot log.
    public static func error(_ message: String) {
        StandardStream.error.write("marquee: \(message)\n")
    }

    /// Why a file operation of FoundationEssentials failed, as the system
    /// says it ("No such file or directory"); its errors carry errno as
    /// their underlying error, and print as a dump of their fields.
    public static func reason(_ error: any Error) -> String {
        if let posix = (error as? CocoaError)?.underlying as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        return "\(error)"
    }
}
