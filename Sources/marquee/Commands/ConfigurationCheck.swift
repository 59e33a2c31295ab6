import MarqueeApp
import MarqueeConfig
import MarqueeControl

/// A configuration file read as `check-config` reads it, for every command
/// that takes one: each problem on stderr at FILE:LINE:COLUMN with its line
/// quoted and a caret under the spot, then one line counting them; each
/// warning the same way, without stopping the command.
enum ConfigurationCheck {
    /// The configuration, or nil when it has problems (the command then exits 1).
    static func load(_ path: String) -> MarqueeConfiguration? {
        do {
            let checked = try MarqueeConfiguration.check(path: path, validateAction: ControlCommand.validate)
            for warning in checked.warnings { StandardStream.error.write("\(warning)\n") }
            return checked.configuration
        } catch {
            if case .invalid = error { StandardStream.error.write("\(error)\n") }
            let problems = error.count == 1 ? "1 problem" : "\(error.count) problems"
            Diagnostics.error(error.isUnreadable ? "\(error)" : "\(path): \(problems)")
            return nil
        }
    }
}

private extension ConfigurationError {
    var isUnreadable: Bool {
        if case .unreadable = self { true } else { false }
    }
}
