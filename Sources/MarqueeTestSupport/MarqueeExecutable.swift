import Foundation

/// The `marquee` binary SwiftPM built next to the test bundle.
public enum MarqueeExecutable {
    public static var path: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [beside, beside.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("marquee").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/marquee").path
    }

    public static func run(_ arguments: [String], timeout: Double = 60) throws -> CommandResult {
        try Command.run(path, arguments, timeout: timeout)
    }
}
