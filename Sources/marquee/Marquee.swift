import FoundationEssentials
import Glibc
import Marquee
import MarqueeApp

/// The `marquee` command line: one type per subcommand, dispatched by name.
@main
struct MarqueeCommandLine {
    static let commands: [CommandEntry] = [CommandEntry(InfoCommand.self), CommandEntry(PlayCommand.self), CommandEntry(DisplaysCommand.self),
                                          CommandEntry(CheckConfigCommand.self), CommandEntry(ScheduleCommand.self),
                                          CommandEntry(HwdecCommand.self),
                                          CommandEntry(CtlCommand.self), CommandEntry(FleetCommand.self), CommandEntry(ThumbnailCommand.self),
                                          CommandEntry(CompletionCommand.self)]

    static func main() async {
        LargeAllocations.returnToTheKernel()
        let libavLog = ProcessInfo.processInfo.environment["MARQUEE_LIBAV_LOG"].flatMap(Libav.LogLevel.init(name:))
        Libav.setLogLevel(libavLog ?? .quiet)
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, !["-h", "--help"].contains(name) else {
            print(usage)
            exit(arguments.isEmpty ? 2 : 0)
        }
        arguments.removeFirst()
        if name == "--version" {
            print(VersionReport.text)
            exit(0)
        }
        if name == "help" {
            guard let topic = arguments.first else {
                print(usage)
                exit(0)
            }
            guard let command = command(named: topic) else { exit(2) }
            print(command.help)
            exit(0)
        }
        guard let command = command(named: name) else { exit(2) }
        if arguments.contains("-h") || arguments.contains("--help") {
            print(command.help)
            exit(0)
        }
        do {
            exit(try await command.execute(arguments))
        } catch let error as UsageError {
            Diagnostics.error(error.description)
            Diagnostics.error("usage: \(command.usage)")
            exit(2)
        } catch {
            Diagnostics.error("\(error)")
            exit(1)
        }
    }

    /// The command called `name`, or nil after one line naming the ones there are.
    private static func command(named name: String) -> CommandEntry? {
        if let command = commands.first(where: { $0.name == name }) { return command }
        Diagnostics.error("unknown command '\(name)'; commands: \(commands.map(\.name).joined(separator: ", "))")
        return nil
    }

    static var usage: String {
        (["usage: marquee COMMAND [OPTIONS]", "       marquee help COMMAND   (or marquee COMMAND --help)",
          "       marquee --version", "", "commands:"]
            + commands.map { command in
                let operands = command.operands.isEmpty ? "" : " \(command.operands)"
                return "  \(command.name)\(operands)\n      " + command.summary.replacing("\n", with: "\n      ")
            }).joined(separator: "\n")
    }
}

protocol Subcommand: Sendable {
    static var name: String { get }
    /// What follows the command besides options ("FILE_OR_URL..."), or "".
    static var operands: String { get }
    /// Every option the command reads, for its parser and its help.
    static var options: [OptionSpec] { get }
    static var summary: String { get }
    /// Reads the options it knows; what is left over is an error.
    init(parsing parser: inout ArgumentParser) throws
    /// The process exit status.
    func run() async -> Int32
}

/// A subcommand's name, help and entry point, without existential metatypes
/// (which crash the 6.3 compiler when initialised in an async context).
struct CommandEntry: Sendable {
    let name: String
    let operands: String
    let options: [OptionSpec]
    let summary: String
    let execute: @Sendable ([String]) async throws -> Int32

    init<Command: Subcommand>(_ type: Command.Type) {
        name = Command.name
        operands = Command.operands
        options = Command.options
        summary = Command.summary
        execute = { arguments in
            var parser = ArgumentParser(command: Command.name, options: Command.options, arguments: arguments)
            let command = try Command(parsing: &parser)
            try parser.finish()
            return await command.run()
        }
    }
}

extension CommandEntry {
    /// `play FILE_OR_URL... [--loop item|playlist|none] ...`
    var usage: String { ([name] + (operands.isEmpty ? [] : [operands]) + options.map(\.usage)).joined(separator: " ") }

    var help: String { CommandHelp.text(name: name, usage: usage, summary: summary, options: options) }
}
