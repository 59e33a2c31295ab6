import Foundation

/// Runs a program to completion, for tests that compare against ffprobe or
/// drive the real `marquee` executable.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    /// True when the process was killed for running past its time limit.
    public let timedOut: Bool
    public let seconds: Double
}

public enum Command {
    /// Runs `executable` with `arguments`; kills it after `timeout` seconds.
    public static func run(_ executable: String, _ arguments: [String], timeout: Double = 120) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : try which(executable))
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        try process.run()
        let reader = PipeReader(out: out, err: err)
        let deadline = started.addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                usleep(200_000)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        let (stdout, stderr) = reader.finish()
        return CommandResult(status: process.terminationStatus, stdout: stdout, stderr: stderr,
                             timedOut: timedOut, seconds: Date().timeIntervalSince(started))
    }

    public static func which(_ name: String) throws -> String {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw CommandError.notFound(name)
    }
}

public enum CommandError: Error, CustomStringConvertible {
    case notFound(String)
    case failed(String, CommandResult)

    public var description: String {
        switch self {
        case .notFound(let name): "\(name) not found on PATH"
        case .failed(let what, let result): "\(what) exited \(result.status): \(result.stderr.suffix(2000))"
        }
    }
}

/// Drains both pipes on background threads so a chatty child never blocks on a full pipe.
private final class PipeReader: @unchecked Sendable {
    // @unchecked: each buffer is written by one reader thread and read only after `group.wait()`.
    private var outData = Data(), errData = Data()
    private let group = DispatchGroup()

    init(out: Pipe, err: Pipe) {
        DispatchQueue.global().async(group: group) { self.outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { self.errData = err.fileHandleForReading.readDataToEndOfFile() }
    }

    func finish() -> (String, String) {
        group.wait()
        return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}
