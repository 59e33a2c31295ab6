import Foundation
import MarqueeTestSupport
import Testing

/// Must-show 1: every TOML 1.0 case of the toml-test suite, through the
/// real `toml-decoder` executable speaking the suite's protocol.
@Suite struct TOMLConformanceTests {
    static let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/toml-test/tests")

    /// The cases `files-toml-1.0.0` lists (the suite also holds 1.1 cases, which are not ours).
    static func cases() throws -> [String] {
        let list = try String(contentsOf: suite.appendingPathComponent("files-toml-1.0.0"), encoding: .utf8)
        return list.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasSuffix(".toml") }
    }

    static var decoder: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [beside, beside.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("toml-decoder").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return MarqueeExecutable.path.replacingOccurrences(of: "/marquee", with: "/toml-decoder")
    }

    @Test func theWholeTOML10SuitePasses() async throws {
        let cases = try Self.cases()
        let valid = cases.filter { $0.hasPrefix("valid/") }
        let invalid = cases.filter { $0.hasPrefix("invalid/") }
        #expect(valid.count > 100 && invalid.count > 100, "the suite list looks truncated")
        #expect(valid.count + invalid.count == cases.count)

        // One at a time, on its own thread: other suites run real-time playback next to this one.
        let failures = try await Blocking.run { try cases.compactMap(Self.check) }
        let passed = cases.count - failures.count
        print("toml-test 1.0: \(passed)/\(cases.count) passed (\(valid.count) valid, \(invalid.count) invalid)")
        #expect(failures.isEmpty, "\(failures.count) cases failed:\n\(failures.sorted().prefix(20).joined(separator: "\n"))")
    }

    /// nil when the case passes, else why it failed.
    static func check(_ name: String) throws -> String? {
        let input = try Data(contentsOf: suite.appendingPathComponent(name))
        let result = try run(decoder, input: input)
        if name.hasPrefix("invalid/") {
            return result.status == 1 ? nil : "\(name): accepted (exit \(result.status)): \(result.stdout.prefix(200))"
        }
        guard result.status == 0 else { return "\(name): rejected: \(result.stderr.prefix(300))" }
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: suite.appendingPathComponent(
            String(name.dropLast(5)) + ".json")))
        guard let actual = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) else {
            return "\(name): not JSON: \(result.stdout.prefix(200))"
        }
        return TaggedJSON.equal(expected, actual) ? nil : "\(name): got \(result.stdout.prefix(300))"
    }

    static func run(_ executable: String, input: Data) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: input)
        try stdin.fileHandleForWriting.close()
        // Outputs are small (the suite's largest is a few kB), so reading one after the other cannot deadlock.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
