import Foundation
import MarqueeConfig
import Testing

@Suite struct PlaylistResolverTests {
    /// A scratch folder with `files` (relative paths) created empty.
    static func folder(_ files: [String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("playlist-\(UUID().uuidString)").path
        for file in files {
            let path = "\(root)/\(file)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        }
        return root
    }

    @Test func foldersGlobsURLsAndFilesExpandInOrder() throws {
        let root = try Self.folder(["loop/b.mp4", "loop/a.mp4", "loop/.hidden", "loop/sub/c.mp4", "clips/x.mkv", "clips/y.mkv",
                                    "clips/z.txt", "intro.mp4"])
        let resolution = PlaylistResolver.resolve(["intro.mp4", "loop", "\(root)/clips/*.mkv", "rtsp://camera/stream", "missing.mp4"],
                                                  relativeTo: root)
        #expect(resolution.items == [
            "\(root)/intro.mp4", "\(root)/loop/a.mp4", "\(root)/loop/b.mp4",
            "\(root)/clips/x.mkv", "\(root)/clips/y.mkv", "rtsp://camera/stream", "\(root)/missing.mp4",
        ])
        #expect(resolution.warnings == ["'missing.mp4' does not exist"])
    }

    @Test func entriesThatGiveNothingAreWarnings() throws {
        let root = try Self.folder(["empty/sub/x.mp4"])
        let resolution = PlaylistResolver.resolve(["empty", "*.webm"], relativeTo: root)
        #expect(resolution.items.isEmpty)
        #expect(resolution.warnings == ["folder 'empty' has no files", "'*.webm' matches no file"])
    }
}
