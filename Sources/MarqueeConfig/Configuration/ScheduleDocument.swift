/// A schedule on its own, as a control channel sends it (`PUT /schedule`):
/// `[[schedule]]`, `[playlists.NAME]` and `[schedule_options]` tables and
/// nothing else, read with the same rules and FILE:LINE:COLUMN errors as a
/// configuration file; its playlist names refer to its own tables.
public struct ScheduleDocument: Sendable, Equatable {
    public var playlists: [NamedPlaylist]
    public var entries: [ScheduleEntry]
    public var options: ScheduleOptions

    /// The top-level tables a schedule document may hold.
    public static let sections = ["schedule", "playlists", "schedule_options"]

    /// - Parameter file: names the text in errors ("PUT /schedule", a path).
    /// - Throws: `ConfigurationError.invalid` with every problem, a table
    ///   of another section among them.
    public init(_ text: String, file: String) throws(ConfigurationError) {
        let table: TOMLTable
        do {
            table = try TOML.parse(text, file: file)
        } catch {
            throw .invalid(SourceErrors([error]))
        }
        let lines = SourceLines(Array(text.unicodeScalars))
        let strangers = table.entries.filter { !Self.sections.contains($0.key) }.map { entry in
            SourceError(file: file, location: entry.keyLocation,
                        message: "'\(entry.key)' does not belong in a schedule (only \(Self.sections.map { "[\($0)]" }.joined(separator: ", ")))",
                        sourceLine: lines[entry.keyLocation.line])
        }
        guard strangers.isEmpty else { throw .invalid(SourceErrors(strangers)) }
        let configuration = try MarqueeConfiguration.parse(text, file: file)
        playlists = configuration.playlists
        entries = configuration.schedule
        options = configuration.scheduleOptions
    }

    /// In place of the configuration's own schedule, named playlists and options.
    public func apply(to configuration: inout MarqueeConfiguration) {
        configuration.playlists = playlists
        configuration.schedule = entries
        configuration.scheduleOptions = options
    }
}
