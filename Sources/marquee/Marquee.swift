import Foundation
import Marquee

/// The `marquee` command line: one type per subcommand, dispatched by name.
@main
struct MarqueeCommandLine {
    static let commands: [CommandEntry] = [CommandEntry(InfoCommand.self), CommandEntry(PlayCommand.self), CommandEntry(DisplaysCommand.self),
                                          CommandEntry(CheckConfigCommand.self), CommandEntry(HwdecCommand.self)]

    static func main() async {
        let libavLog = ProcessInfo.processInfo.environment["MARQUEE_LIBAV_LOG"].flatMap(Libav.LogLevel.init(name:))
        Libav.setLogLevel(libavLog ?? .quiet)
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, !["-h", "--help", "help"].contains(name) else {
            print(usage)
            exit(arguments.isEmpty ? 2 : 0)
        }
        arguments.removeFirst()
        guard let command = commands.first(where: { $0.name == name }) else {
            Diagnostics.error("unknown command '\(name)'; commands: \(commands.map(\.name).joined(separator: ", "))")
            exit(2)
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

    static var usage: String {
        (["usage: marquee COMMAND [OPTIONS]", "", "commands:"]
            + commands.map { "  \($0.usage)\n      \($0.summary)" }).joined(separator: "\n")
    }
}

protocol Subcommand: Sendable {
    static var name: String { get }
    static var usage: String { get }
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
    let usage: String
    let summary: String
    let execute: @Sendable ([String]) async throws -> Int32

    init<Command: Subcommand>(_ type: Command.Type) {
        name = Command.name
        usage = Command.usage
        summary = Command.summary
        execute = { arguments in
            var parser = ArgumentParser(command: Command.name, arguments: arguments)
            let command = try Command(parsing: &parser)
            try parser.finish()
            return await command.run()
        }
    }
}

enum Diagnostics {
    /// One line on stderr, prefixed so it is found in a boot log.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("marquee: \(message)\n".utf8))
    }
}
