import MarqueeApp
import MarqueeConfig
import MarqueeControl

/// `marquee check-config FILE`: validates a configuration file and prints
/// the effective configuration (every key, defaults filled in) as TOML.
/// Every problem is reported, each with FILE:LINE:COLUMN and the line quoted;
/// the exit status is 1 if there was any. Warnings (a schedule entry that
/// can never decide, media not there) do not change it.
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
        guard let configuration = ConfigurationCheck.load(path) else { return 1 }
        print(configuration.tomlText, terminator: "")
        // Missing media is worth knowing, but not an error: it may be mounted later.
        let log = ControlLog(level: .warning)
        _ = PlaylistLoader(log: log).items(for: configuration, configPath: path)
        for playlist in configuration.playlists {
            let resolution = PlaylistResolver.resolve(playlist.items, relativeTo: PlaylistLoader.base(path))
            for warning in resolution.warnings { log.warning("playlists.\(playlist.name): \(warning)") }
        }
        return 0
    }
}
