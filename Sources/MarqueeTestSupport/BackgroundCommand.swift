import Foundation

/// A command running in the background (curl streaming events, a client
/// following a player) whose standard output is kept.
public final class BackgroundCommand {
    private let process = Process()
    private let output: String

    /// - Parameter executable: a path, or a name looked up on PATH.
    public init(_ executable: String, _ arguments: [String]) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("background-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : try Command.which(executable))
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for it to end by itself; what it wrote on standard output.
    public func wait() -> String {
        process.waitUntilExit()
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// Interrupts it (SIGINT), then as `wait()`.
    public func stop() -> String {
        if process.isRunning { process.interrupt() }
        return wait()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
