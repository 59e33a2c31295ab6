import FoundationEssentials
import MarqueeConfig
import MarqueeControl

/// `marquee check-config FILE`: validates a configuration file and prints
/// the effective configuration (every key, defaults filled in) as TOML.
/// Every problem is reported, each with FILE:LINE:COLUMN and the line quoted;
/// the exit status is 1 if there was any.
struct CheckConfigCommand: Subcommand {
    static let name = "check-config"
    static let operands = "FILE"
    static let options: [OptionSpec] = []
    static let summary = "Check a configuration file and print the configuration it gives, defaults included."

    let path: String

    init(parsing parser: inout ArgumentParser) throws {
        let files = try parser.positional()
        guard files.count == 1 else { throw UsageError("check-config needs exactly one file") }
        path = files[0]
    }

    func run() async -> Int32 {
        do {
            let configuration = try MarqueeConfiguration.load(path: path, validateAction: ControlCommand.validate)
            print(configuration.tomlText, terminator: "")
            // Missing media is worth knowing, but not an error: it may be mounted later.
            _ = PlaylistLoader(log: ControlLog(level: .warning)).items(for: configuration, configPath: path)
            return 0
        } catch {
            if case .invalid = error { StandardStream.error.write("\(error)\n") }
            let problems = error.count == 1 ? "1 problem" : "\(error.count) problems"
            Diagnostics.error(error.isUnreadable ? "\(error)" : "\(path): \(problems)")
            return 1
        }
    }
}

private extension ConfigurationError {
    var isUnreadable: Bool {
        if case .unreadable = self { true } else { false }
    }
}
