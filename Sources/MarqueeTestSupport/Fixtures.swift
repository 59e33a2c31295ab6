import Foundation

/// Synthetic media made with the ffmpeg CLI on first use and cached per
/// recipe, so a test run encodes each clip once.
public enum Fixtures {
    /// A clip recipe: ffmpeg arguments between the inputs and the output file.
    public struct Recipe: Sendable, CustomStringConvertible {
        public let name: String
        public let fileExtension: String
        public let arguments: [String]
        public var description: String { name }

        /// FNV-1a of the arguments: stable across runs, unlike `hashValue`.
        var fingerprint: String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in arguments.joined(separator: "\u{1}").utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return String(hash, radix: 16)
        }

        public init(name: String, fileExtension: String, arguments: [String]) {
            self.name = name
            self.fileExtension = fileExtension
            self.arguments = arguments
        }
    }

    /// Test pattern video plus a tone, `seconds` long.
    public static func clip(_ name: String, seconds: Double = 2, size: String = "320x240", rate: Int = 25,
                            video: [String], audio: [String], container: String) -> Recipe {
        Recipe(name: name, fileExtension: container, arguments: [
            "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
            "-ac", "2",
        ] + video + audio + ["-shortest"])
    }

    /// The codec matrix the decode tests cover: every video codec and every
    /// audio codec appears at least once.
    public static let codecMatrix: [Recipe] = [
        clip("h264-aac", video: ["-c:v", "libx264", "-preset", "veryfast", "-bf", "2"], audio: ["-c:a", "aac"], container: "mp4"),
        clip("hevc-mp3", video: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error"],
             audio: ["-c:a", "libmp3lame"], container: "mkv"),
        clip("vp9-opus", video: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"],
             audio: ["-c:a", "libopus"], container: "webm"),
        clip("av1-aac", video: ["-c:v", "libaom-av1", "-cpu-used", "8", "-row-mt", "1"], audio: ["-c:a", "aac"], container: "mp4"),
        clip("mpeg2-ac3", video: ["-c:v", "mpeg2video"], audio: ["-c:a", "ac3"], container: "ts"),
    ]

    /// Where fixtures are cached: under the package's .build folder (ignored by git).
    public static var directory: URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/fixtures")
    }

    private static let lock = NSLock()

    /// The path of the encoded fixture, encoding it if it is not cached yet.
    public static func path(_ recipe: Recipe) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        // The recipe's hash is in the name so an edited recipe never reuses a stale file.
        let target = directory.appendingPathComponent("\(recipe.name)-\(recipe.fingerprint).\(recipe.fileExtension)")
        if FileManager.default.fileExists(atPath: target.path) { return target.path }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let partial = directory.appendingPathComponent("partial-\(recipe.name).\(recipe.fileExtension)")
        let result = try Command.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + recipe.arguments + [partial.path], timeout: 300)
        guard result.status == 0 else { throw CommandError.failed("ffmpeg \(recipe.name)", result) }
        try FileManager.default.moveItem(at: partial, to: target)
        return target.path
    }
}
