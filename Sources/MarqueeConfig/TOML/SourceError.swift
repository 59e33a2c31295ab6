/// A problem found at one place in a text file (a TOML syntax error, a
/// configuration value of the wrong type). Prints as
///
///     config.toml:3:9: expected '=' after a key
///         3 | rate 1.5
///           |      ^
///
/// so the line and the spot on it can be seen without opening the file.
public struct SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it; "<stdin>" or similar when there is none.
    public var file: String
    public let location: SourceLocation
    public let message: String
    /// The whole line `location` is on, without its line break.
    public let sourceLine: String

    public init(file: String, location: SourceLocation, message: String, sourceLine: String) {
        self.file = file
        self.location = location
        self.message = message
        self.sourceLine = sourceLine
    }

    /// `FILE:LINE:COLUMN: MESSAGE`, the first line of `description`.
    public var summary: String { "\(file):\(location): \(message)" }

    public var description: String {
        let number = String(location.line)
        let gutter = String(repeating: " ", count: number.count)
        // Long lines are cut to a window around the column, marked with "…".
        let scalars = Array(sourceLine.unicodeScalars)
        let caret = max(0, min(location.column - 1, scalars.count))
        let start = scalars.count > Self.maximumShown ? max(0, min(caret - Self.maximumShown / 2, scalars.count - Self.maximumShown)) : 0
        let end = min(scalars.count, start + Self.maximumShown)
        let shown = (start > 0 ? "…" : "") + scalars[start..<end].map(Self.printable).joined() + (end < scalars.count ? "…" : "")
        // Tabs stay tabs in the caret line so the caret lines up in any terminal.
        let lead = (start > 0 ? " " : "") + scalars[start..<caret].map { $0 == "\t" ? "\t" : " " }.joined()
        return "\(summary)\n    \(number) | \(shown)\n    \(gutter) | \(lead)^"
    }

    static let maximumShown = 120

    private static func printable(_ scalar: Unicode.Scalar) -> String {
        scalar.isTOMLForbiddenControl || scalar == "\r" ? "\u{FFFD}" : String(scalar)
    }
}

/// Several problems in one file, reported together so one run of
/// `marquee check-config` shows every mistake, not just the first.
public struct SourceErrors: Error, Sendable, CustomStringConvertible {
    public let errors: [SourceError]

    public init(_ errors: [SourceError]) {
        self.errors = errors.sorted { $0.location < $1.location }
    }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// The lines of a text, for quoting a line in an error.
struct SourceLines: Sendable {
    private let lines: [String]

    init(_ scalars: [Unicode.Scalar]) {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in scalars {
            if scalar == "\n" {
                if current.last == "\r" { current.removeLast() }
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(current))
        self.lines = lines
    }

    subscript(line: Int) -> String { lines.indices.contains(line - 1) ? lines[line - 1] : "" }
}
