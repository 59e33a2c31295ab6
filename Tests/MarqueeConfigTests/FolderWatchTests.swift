import Foundation
import Glibc
import MarqueeConfig
import Synchronization
import Testing

/// The watch on the kernel's own inotify, in scratch folders: what is
/// pending, what is complete, and that folders that come and go are followed.
/// Serialized: one test counts the process's inotify descriptors.
@Suite(.serialized) struct FolderWatchTests {
    /// The changes a watch reports, waited for with a deadline.
    final class Changes: Sendable {
        private let seen = Mutex<[FolderWatch.Change]>([])

        func record(_ change: FolderWatch.Change) { seen.withLock { $0.append(change) } }

        var count: Int { seen.withLock { $0.count } }

        /// Whether `path` was reported complete.
        func completed(_ path: String) -> Bool { seen.withLock { $0.contains { $0.completed.contains(path) } } }

        /// Waits up to `seconds` for `condition`; true if it came.
        func wait(_ seconds: Double, for condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return condition()
        }
    }

    static func scratch(_ files: [String] = []) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(root)/media", withIntermediateDirectories: true)
        for file in files { #expect(FileManager.default.createFile(atPath: "\(root)/media/\(file)", contents: Data([1, 2, 3]))) }
        return root
    }

    static func watch(_ entries: [String], in root: String, settle: Duration = .seconds(30), _ changes: Changes) throws -> FolderWatch {
        try FolderWatch(entries: entries, relativeTo: root, settle: settle, onChange: { changes.record($0) },
                        onProblem: { problem in Issue.record("unexpected problem: \(problem)") })
    }

    /// Opens `path` for writing (created empty) and writes `bytes` bytes; the caller closes it.
    static func startWriting(_ path: String, bytes: Int) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0, "open \(path)")
        write(descriptor, bytes)
        return descriptor
    }

    static func write(_ descriptor: Int32, _ bytes: Int) {
        let data = [UInt8](repeating: 7, count: bytes)
        #expect(data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == bytes)
    }

    @Test func aFileBeingWrittenIsLeftOutUntilItIsClosed() throws {
        let root = try Self.scratch(["a.mp4"])
        let changes = Changes()
        let watch = try Self.watch(["media"], in: root, changes)
        defer { watch.stop() }
        #expect(watch.admits("\(root)/media/a.mp4"), "a file there at the start is complete")

        let path = "\(root)/media/b.mp4"
        let descriptor = Self.startWriting(path, bytes: 100_000)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!watch.admits(path), "half written")
        #expect(!changes.completed(path))
        Self.write(descriptor, 100_000)
        #expect(!watch.admits(path), "still being written")
        close(descriptor)
        #expect(changes.wait(2) { changes.completed(path) }, "closed after writing: complete")
        #expect(watch.admits(path))
        #expect(watch.admits("\(root)//media/./b.mp4"), "the same file however the resolver spells it")
    }

    @Test func aFileMovedInIsCompleteAtOnce() throws {
        let root = try Self.scratch()
        let changes = Changes()
        let watch = try Self.watch(["media/*.mp4"], in: root, changes)
        defer { watch.stop() }
        #expect(FileManager.default.createFile(atPath: "\(root)/c.part", contents: Data(count: 50_000)))
        try FileManager.default.moveItem(atPath: "\(root)/c.part", toPath: "\(root)/media/c.mp4")
        #expect(changes.wait(2) { changes.completed("\(root)/media/c.mp4") })
        #expect(watch.admits("\(root)/media/c.mp4"))
    }

    /// A writer that keeps its file open: complete once nothing was written
    /// for the settle time, and not before.
    @Test func aFileNotWrittenForTheSettleTimeIsComplete() throws {
        let root = try Self.scratch()
        let changes = Changes()
        let watch = try Self.watch(["media"], in: root, settle: .milliseconds(600), changes)
        defer { watch.stop() }
        let path = "\(root)/media/d.mp4"
        let descriptor = Self.startWriting(path, bytes: 10_000)
        defer { close(descriptor) }
        for _ in 0..<4 {
            Thread.sleep(forTimeInterval: 0.3)
            Self.write(descriptor, 10_000)
        }
        let lastWrite = Date()
        #expect(!watch.admits(path), "written every 0.3 s for 1.2 s: still pending")
        #expect(changes.wait(3) { changes.completed(path) })
        let settled = Date().timeIntervalSince(lastWrite)
        #expect(settled >= 0.55 && settled < 1.5, "complete \(settled) s after the last write")
        #expect(watch.admits(path))
    }

    @Test func aDeletedFileIsAChange() throws {
        let root = try Self.scratch(["a.mp4", "b.mp4"])
        let changes = Changes()
        let watch = try Self.watch(["media"], in: root, changes)
        defer { watch.stop() }
        try FileManager.default.removeItem(atPath: "\(root)/media/a.mp4")
        #expect(changes.wait(2) { changes.count == 1 })
    }

    /// A folder that is not there yet is watched through its parent, then
    /// itself once made; removed and made again, it is still followed. A
    /// file written before its folder's watch began (mkdir -p and a copy
    /// at once) is complete once it has settled.
    @Test func aMissingFolderIsWaitedForAndFollowedWhenMade() throws {
        let root = try Self.scratch()
        let changes = Changes()
        let watch = try Self.watch(["stick/videos"], in: root, settle: .milliseconds(500), changes)
        defer { watch.stop() }
        #expect(watch.folders == ["\(root)/stick/videos"])
        #expect(!watch.admits("\(root)/stick/videos"), "a folder waited for is not an item")
        // A missing entry with an extension is a file: it stays an item (and fails with its line).
        #expect(FolderWatch.playable(["\(root)/stick/videos", "\(root)/y.mp4"], entries: ["stick/videos", "y.mp4"], relativeTo: root)
            == ["\(root)/y.mp4"])

        try FileManager.default.createDirectory(atPath: "\(root)/stick/videos", withIntermediateDirectories: true)
        #expect(changes.wait(2) { changes.count >= 1 }, "the folder appeared")
        close(Self.startWriting("\(root)/stick/videos/a.mp4", bytes: 1000))
        #expect(changes.wait(3) { changes.completed("\(root)/stick/videos/a.mp4") }, "watched in the new folder")

        try FileManager.default.removeItem(atPath: "\(root)/stick")
        Thread.sleep(forTimeInterval: 0.2)
        try FileManager.default.createDirectory(atPath: "\(root)/stick/videos", withIntermediateDirectories: true)
        Thread.sleep(forTimeInterval: 0.2)
        close(Self.startWriting("\(root)/stick/videos/b.mp4", bytes: 1000))
        #expect(changes.wait(2) { changes.completed("\(root)/stick/videos/b.mp4") }, "followed after being made again")
    }

    @Test func urlsAndFilesThatExistAreNotWatched() throws {
        let root = try Self.scratch(["a.mp4"])
        #expect(!FolderWatch.watches(["media/a.mp4", "media/missing.mp4", "rtsp://camera/stream"], relativeTo: root))
        #expect(FolderWatch.watches(["media/usb"], relativeTo: root), "a missing folder is waited for")
        #expect(FolderWatch.watches(["media"], relativeTo: root))
        #expect(FolderWatch.watches(["media/*.mp4"], relativeTo: root))
    }

    /// The inotify descriptor is the watch's alone, and closed when it goes.
    @Test func theDescriptorClosesWithTheWatch() throws {
        let root = try Self.scratch()
        func inotifyDescriptors() -> Int {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == "anon_inode:inotify" }.count
        }
        let before = inotifyDescriptors()
        var watch: FolderWatch? = try Self.watch(["media"], in: root, Changes())
        #expect(inotifyDescriptors() == before + 1)
        watch?.stop()
        watch = nil
        #expect(Changes().wait(2) { inotifyDescriptors() == before }, "closed after the last read")
    }
}
