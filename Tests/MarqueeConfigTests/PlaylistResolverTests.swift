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
        let resolution = PlaylistResolver.resolve(["intro.mp4", "loop", PlaylistEntry(path: "\(root)/clips/*.mkv"),
                                                   "rtsp://camera/stream", "missing.mp4"],
                                                  relativeTo: root)
        #expect(resolution.items.map(\.source) == [
            "\(root)/intro.mp4", "\(root)/loop/a.mp4", "\(root)/loop/b.mp4",
            "\(root)/clips/x.mkv", "\(root)/clips/y.mkv", "rtsp://camera/stream", "\(root)/missing.mp4",
        ])
        #expect(resolution.warnings == ["'missing.mp4' does not exist"])
        #expect(resolution.items.allSatisfy { $0.duration == nil })
    }

    /// An entry's picture duration goes with every item it gives: a
    /// folder's files, a glob's matches, a file.
    @Test func anEntrysDurationGoesWithEachOfItsItems() throws {
        let root = try Self.folder(["photos/a.jpg", "photos/b.png", "menu.jpg", "clip.mp4"])
        let resolution = PlaylistResolver.resolve([PlaylistEntry(path: "photos", duration: 5), "clip.mp4",
                                                   PlaylistEntry(path: "m*.jpg", duration: 20)], relativeTo: root)
        #expect(resolution.items == [
            PlaylistResolver.Item(source: "\(root)/photos/a.jpg", duration: 5), PlaylistResolver.Item(source: "\(root)/photos/b.png", duration: 5),
            PlaylistResolver.Item(source: "\(root)/clip.mp4"), PlaylistResolver.Item(source: "\(root)/menu.jpg", duration: 20),
        ])
    }

    @Test func entriesThatGiveNothingAreWarnings() throws {
        let root = try Self.folder(["empty/sub/x.mp4"])
        let resolution = PlaylistResolver.resolve(["empty", "*.webm"], relativeTo: root)
        #expect(resolution.items.isEmpty)
        #expect(resolution.warnings == ["folder 'empty' has no files", "'*.webm' matches no file"])
    }
}
