import FoundationEssentials
import Glibc
import MarqueeControl

/// A file that holds one secret, a bearer token or a PEM certificate or
/// key, as `[controls.http]` and `marquee ctl --token-file` name them.
public enum SecretFile {
    /// The file's text, trimmed (a token file ends with a line break).
    /// - Parameter key: what names the file in errors ("token_file", "--token-file").
    /// - Throws: `ControlError` naming the key and the file.
    public static func read(_ path: String, what key: String) throws(ControlError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ControlError("\(key) \(path): cannot be read (\(String(cString: strerror(errno))))")
        }
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { throw ControlError("\(key) \(path) is empty") }
        return trimmed
    }
}
