import Foundation
import MarqueeTestSupport
import Synchronization

/// A running `marquee play` whose stdin the test writes and whose stdout
/// lines it reads as they come, each read with a time limit so a stalled
/// player fails the test instead of hanging it.
final class PlayerProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let lines = Mutex<[String]>([])
    private let arrived = DispatchSemaphore(value: 0)
    private let errors = Mutex(Data())
    /// Left by each of the two reader threads when its pipe ends.
    private let done = DispatchGroup()

    init(_ arguments: [String]) throws {
        // A player that has exited (a test that failed and went on) makes a
        // write to its stdin EPIPE, thrown by `send`, instead of a SIGPIPE
        // that would end every test in the process.
        signal(SIGPIPE, SIG_IGN)
        process = Process()
        process.executableURL = URL(fileURLWithPath: MarqueeExecutable.path)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        input = stdin.fileHandleForWriting
        try process.run()
        let out = stdout.fileHandleForReading, err = stderr.fileHandleForReading
        // Dedicated threads, not Dispatch's pool: these block for the life of the process.
        done.enter()
        done.enter()
        Thread { [self] in
            defer { done.leave() }
            var pending = Data()
            while case let chunk = out.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.withLock { $0.append(line) }
                    arrived.signal()
                }
            }
        }.start()
        Thread { [self] in
            defer { done.leave() }
            while case let chunk = err.availableData, !chunk.isEmpty { errors.withLock { $0.append(chunk) } }
        }.start()
    }

    var pid: Int32 { process.processIdentifier }
    var stderr: String { errors.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Whether stderr comes to contain `text` within `timeout` seconds (log
    /// lines are written from other threads, a little after the effect).
    func stderrContains(_ text: String, timeout: Double = 10) async -> Bool {
        (try? await Blocking.run { self.stderrContainsBlocking(text, timeout: timeout) }) ?? false
    }

    private func stderrContainsBlocking(_ text: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !stderr.contains(text) {
            if Date() > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    func send(_ line: String) throws {
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    func send(bytes: [UInt8]) throws {
        try input.write(contentsOf: Data(bytes))
    }

    /// The next stdout line, or nil after `timeout` seconds.
    func nextLine(timeout: Double = 10) async -> String? {
        (try? await Blocking.run { self.nextLineBlocking(timeout: timeout) }) ?? nil
    }

    func nextLineBlocking(timeout: Double = 10) -> String? {
        guard arrived.wait(timeout: .now() + timeout) == .success else { return nil }
        return lines.withLock { $0.removeFirst() }
    }

    /// Sends a command and returns its reply line.
    func reply(_ command: String, timeout: Double = 10) async throws -> String? {
        try await Blocking.run {
            try self.send(command)
            return self.nextLineBlocking(timeout: timeout)
        }
    }

    /// The `status` reply's fields (`state=playing item=1/3 ...`), by name.
    func status() async throws -> [String: String] {
        guard let line = try await reply("status"), line.hasPrefix("ok ") else { return [:] }
        var fields: [String: String] = [:]
        for pair in line.dropFirst(3).split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }

    /// Waits for the process to end; its exit status, or nil if it is still
    /// running after `timeout` (it is then killed).
    func waitForExit(timeout: Double = 10) async -> Int32? {
        (try? await Blocking.run { self.waitForExitBlocking(timeout: timeout) }) ?? nil
    }

    private func waitForExitBlocking(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        _ = done.wait(timeout: .now() + 5)
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
