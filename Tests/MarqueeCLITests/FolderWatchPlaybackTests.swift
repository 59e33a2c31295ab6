import Foundation
import Glibc
import MarqueeTestSupport
import Testing

/// Issue 19's folder watching, on the real binary in real time: a
/// configuration whose playlist is a folder, looped, while the test adds,
/// writes and deletes files in it. Items are told apart by their lengths in
/// the presentation log: a 1 s clip is 25 frames, a 2 s clip 50, the odd
/// 854x356 clip of ../shared/media 31, a still picture 1.
@Suite(.serialized) struct FolderWatchPlaybackTests {
    static let oddClip = "\(SharedMedia.directory)/androidx/checkerboard_854x356_avc_baseline.mp4"
    /// A JPEG whose EXIF turns it on its side.
    static let turnedPicture = "\(SharedMedia.directory)/exif/Landscape_6.jpg"

    /// The most between the last frame of an item and the first of the
    /// next at a seamless boundary: a frame (25 fps) and a refresh of the
    /// null display (60 Hz), on whose vblanks frames land.
    static let seam = 0.04 + 1.0 / 60 + 0.001

    /// One item's consecutive frames in the log.
    struct Run {
        let item: Int
        let pass: Int
        var frames: Int
        let start: Double
        var end: Double
    }

    /// A scratch folder holding `media/` with `clips` (name: seconds) and a
    /// configuration playing it, its pictures up 1 s (the entry's duration,
    /// not `image_duration`).
    static func show(_ clips: [String: Int]) throws -> String {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(work)/media", withIntermediateDirectories: true)
        for (name, seconds) in clips {
            try FileManager.default.copyItem(atPath: try Fixtures.path(Fixtures.indexed(seconds: seconds)), toPath: "\(work)/media/\(name)")
        }
        try """
        [playback]
        playlist = [{ path = "media", duration = 1 }]
        loop = "playlist"
        image_duration = 5

        [log]
        status_interval = 60
        """.write(toFile: "\(work)/marquee.toml", atomically: true, encoding: .utf8)
        return work
    }

    static func start(_ work: String) throws -> BackgroundMarquee {
        try BackgroundMarquee(["play", "--config", "\(work)/marquee.toml", "--video-out", "null", "--audio-out", "null",
                               "--control", "off", "--presentation-log", "\(work)/presented.jsonl"])
    }

    /// Seconds on CLOCK_MONOTONIC, the clock of the presentation log.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Waits until the player says `name` is on screen (an `item` event on stdout); false after 10 s.
    static func waitForItem(_ name: String, of player: BackgroundMarquee, after count: Int = 0) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let items = player.outputSoFar().split(separator: "\n").filter { $0.contains("\"event\":\"item\"") }
            if items.dropFirst(count).contains(where: { $0.contains(name) }) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    static func itemEvents(_ player: BackgroundMarquee) -> Int {
        player.outputSoFar().split(separator: "\n").filter { $0.contains("\"event\":\"item\"") }.count
    }

    /// The log's runs (an item's frames in one pass), the last one (cut off by the stop) left out.
    static func runs(_ work: String) throws -> [Run] {
        var runs: [Run] = []
        for frame in try PresentedFrame.read("\(work)/presented.jsonl") {
            if let last = runs.last, last.item == frame.item, last.pass == frame.pass {
                runs[runs.count - 1].frames += 1
                runs[runs.count - 1].end = frame.display
            } else {
                runs.append(Run(item: frame.item, pass: frame.pass, frames: 1, start: frame.display, end: frame.display))
            }
        }
        return Array(runs.dropLast())
    }

    static func errorLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { !$0.contains("playlist: waiting for files") }
    }

    /// A clip copied in and a picture moved in while b plays: both play in
    /// this pass, in name order after b, each from the first boundary it can,
    /// with no gap at either seam.
    @Test func filesDroppedDuringPlaybackPlayNext() throws {
        let work = try Self.show(["a.mp4": 1, "b.mp4": 2])
        try FileManager.default.copyItem(atPath: Self.turnedPicture, toPath: "\(work)/d.jpg")
        let player = try Self.start(work)
        #expect(Self.waitForItem("b.mp4", of: player))
        let dropped = Self.now()
        try FileManager.default.copyItem(atPath: Self.oddClip, toPath: "\(work)/media/c.mp4")
        try FileManager.default.moveItem(atPath: "\(work)/d.jpg", toPath: "\(work)/media/d.jpg")
        Thread.sleep(forTimeInterval: 6)
        let result = player.stop()
        #expect(Self.errorLines(result.stderr).isEmpty, "\(result.stderr)")

        let runs = try Self.runs(work)
        #expect(runs.prefix(5).map(\.frames) == [25, 50, 31, 1, 25], "a, b, then c and d in this pass: \(runs.map(\.frames))")
        guard runs.count >= 4 else { return }
        let (b, c, d) = (runs[1], runs[2], runs[3])
        print(String(format: "dropped %.2f s into b; c up %.2f s after the drop, at b's end; d up for %.3f s",
                     dropped - b.start, c.start - dropped, runs.count > 4 ? runs[4].start - d.start : -1))
        #expect(b.start < dropped && dropped < b.end, "dropped while b played")
        #expect(c.start - b.end < Self.seam, "c follows b without a gap: \(c.start - b.end) s")
        #expect(d.start - c.end < Self.seam, "d follows c without a gap: \(d.start - c.end) s")
        if runs.count > 4 {
            #expect(abs(runs[4].start - d.start - 1) < Self.seam, "d up its entry's 1 s: \(runs[4].start - d.start) s")
        }
    }

    /// A file written in four pieces 1.2 s apart (never 2 s unwritten)
    /// is not played while it is being written, though boundaries pass and
    /// a picture moved in meanwhile is picked up; it plays once closed.
    @Test func aFileStillBeingWrittenIsNotPlayedUntilComplete() throws {
        let work = try Self.show(["a.mp4": 1])
        try FileManager.default.copyItem(atPath: Self.turnedPicture, toPath: "\(work)/b.jpg")
        let clip = try Data(contentsOf: URL(fileURLWithPath: Self.oddClip))
        let player = try Self.start(work)
        #expect(Self.waitForItem("a.mp4", of: player))
        #expect(FileManager.default.createFile(atPath: "\(work)/media/c.mp4", contents: nil))
        let writer = try #require(FileHandle(forWritingAtPath: "\(work)/media/c.mp4"))
        let quarter = clip.count / 4
        writer.write(clip.prefix(quarter))
        try FileManager.default.moveItem(atPath: "\(work)/b.jpg", toPath: "\(work)/media/b.jpg")
        for piece in 1..<4 {
            Thread.sleep(forTimeInterval: 1.2)
            writer.write(piece == 3 ? clip[(3 * quarter)...] : clip[(piece * quarter)..<((piece + 1) * quarter)])
        }
        try writer.close()
        let closed = Self.now()
        Thread.sleep(forTimeInterval: 5)
        let result = player.stop()
        #expect(Self.errorLines(result.stderr).isEmpty, "a half-written file was opened: \(result.stderr)")

        let runs = try Self.runs(work)
        let beforeClose = runs.filter { $0.start < closed }
        #expect(beforeClose.allSatisfy { $0.frames == 25 || $0.frames == 1 }, "only a and b while c was written: \(runs.map(\.frames))")
        #expect(beforeClose.contains { $0.frames == 1 }, "the picture moved in meanwhile was played")
        #expect(beforeClose.count >= 3, "boundaries passed while c was written: \(beforeClose.count) runs")
        let c = runs.first { $0.frames != 25 && $0.frames != 1 }
        #expect(c?.frames == 31, "c whole once complete: \(runs.map(\.frames))")
        if let c { print(String(format: "c up %.2f s after it was closed", c.start - closed)) }
    }

    /// The file on screen deleted: it plays to its end from the open file,
    /// the show goes on, and it never comes back.
    @Test func aDeletedCurrentFileDoesNotStopTheShow() throws {
        let work = try Self.show(["a.mp4": 1, "b.mp4": 2])
        let player = try Self.start(work)
        #expect(Self.waitForItem("b.mp4", of: player))
        let deleted = Self.now()
        try FileManager.default.removeItem(atPath: "\(work)/media/b.mp4")
        Thread.sleep(forTimeInterval: 5)
        #expect(player.isRunning, "the show stopped")
        let result = player.stop()
        #expect(Self.errorLines(result.stderr).isEmpty, "\(result.stderr)")

        let runs = try Self.runs(work)
        #expect(runs.prefix(5).map(\.frames) == [25, 50, 25, 25, 25], "b played out, then a alone: \(runs.map(\.frames))")
        #expect(runs.count > 1 && runs[1].start < deleted && deleted < runs[1].end, "deleted while b played")
        #expect(runs.dropFirst(2).allSatisfy { $0.frames == 25 }, "b came back: \(runs.map(\.frames))")
    }

    /// An empty folder at the start: no exit, no CPU while waiting, one line;
    /// a picture and a clip dropped in then play.
    @Test func anEmptyFolderAtTheStartIsWaitedFor() throws {
        let work = try Self.show([:])
        let player = try Self.start(work)
        #expect(player.waitForError(containing: "waiting for files"), "no waiting line")
        Thread.sleep(forTimeInterval: 0.5)
        let cpuFrom = player.cpuSeconds()
        Thread.sleep(forTimeInterval: 4)
        let waitingCPU = player.cpuSeconds() - cpuFrom
        #expect(player.isRunning, "the player exited on an empty folder")
        #expect(waitingCPU < 0.05, "\(waitingCPU) s of CPU in 4 s of waiting")
        let dropped = Self.now()
        try FileManager.default.copyItem(atPath: Self.turnedPicture, toPath: "\(work)/media/a.jpg")
        try FileManager.default.copyItem(atPath: try Fixtures.path(Fixtures.indexed(seconds: 1)), toPath: "\(work)/media/b.mp4")
        Thread.sleep(forTimeInterval: 4.5)
        let result = player.stop()
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.filter { $0 == "marquee: playlist: waiting for files in '\(work)/media'" }.count == 1, "\(lines)")
        #expect(lines.count == 2 && lines.contains("marquee: playlist: folder 'media' has no files"), "\(lines)")

        let frames = try PresentedFrame.read("\(work)/presented.jsonl")
        let first = try #require(frames.first, "nothing played after the files came")
        print(String(format: "CPU while waiting: %.2f s in 4 s; first frame %.2f s after the drop", waitingCPU, first.display - dropped))
        #expect(first.display > dropped && first.display - dropped < 1, "first frame \(first.display - dropped) s after the drop")
        #expect(try Self.runs(work).prefix(3).map(\.frames) == [1, 25, 1], "the picture, the clip, the picture again")
    }

    /// A folder that is not there at the start (a stick not mounted): waited
    /// for, not played as a file; made with a clip in it, it plays.
    @Test func aMissingFolderAtTheStartIsWaitedFor() throws {
        let work = try Self.show([:])
        try String(contentsOfFile: "\(work)/marquee.toml", encoding: .utf8)
            .replacingOccurrences(of: "path = \"media\"", with: "path = \"stick/videos\"")
            .write(toFile: "\(work)/marquee.toml", atomically: true, encoding: .utf8)
        let player = try Self.start(work)
        #expect(player.waitForError(containing: "waiting for files"), "no waiting line")
        #expect(player.isRunning, "the player exited on a missing folder")
        try FileManager.default.createDirectory(atPath: "\(work)/stick/videos", withIntermediateDirectories: true)
        Thread.sleep(forTimeInterval: 0.5)
        try FileManager.default.copyItem(atPath: Self.oddClip, toPath: "\(work)/stick/videos/c.mp4")
        Thread.sleep(forTimeInterval: 3)
        let result = player.stop()
        let lines = result.stderr.split(separator: "\n")
        #expect(lines == ["marquee: playlist: 'stick/videos' does not exist",
                          "marquee: playlist: waiting for files in '\(work)/stick/videos'"], "\(lines)")
        #expect(try Self.runs(work).first?.frames == 31, "the clip in the folder once made")
    }

    /// A reload (SIGHUP) to a playlist of another, empty folder: the new
    /// folder is waited for and watched, the old one is no longer.
    @Test func aReloadedPlaylistIsWatchedInsteadOfTheOldOne() throws {
        let work = try Self.show(["a.mp4": 1])
        try FileManager.default.createDirectory(atPath: "\(work)/other", withIntermediateDirectories: true)
        let player = try Self.start(work)
        #expect(Self.waitForItem("a.mp4", of: player))
        try String(contentsOfFile: "\(work)/marquee.toml", encoding: .utf8)
            .replacingOccurrences(of: "path = \"media\"", with: "path = \"other\"")
            .write(toFile: "\(work)/marquee.toml", atomically: true, encoding: .utf8)
        player.send(SIGHUP)
        Thread.sleep(forTimeInterval: 2.5)
        try FileManager.default.copyItem(atPath: try Fixtures.path(Fixtures.indexed(seconds: 2)), toPath: "\(work)/media/b.mp4")
        Thread.sleep(forTimeInterval: 1)
        let dropped = Self.now()
        try FileManager.default.copyItem(atPath: Self.oddClip, toPath: "\(work)/other/c.mp4")
        Thread.sleep(forTimeInterval: 3)
        #expect(player.isRunning, "the show stopped")
        let result = player.stop()
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.contains("marquee: playlist: waiting for files in '\(work)/other'"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("marquee: SIGHUP: reloaded") }, "\(lines)")

        let runs = try Self.runs(work)
        #expect(runs.first?.frames == 25 && runs.dropFirst().allSatisfy { $0.frames == 31 } && runs.count >= 2,
                "a played out, then c from the new folder; b in the old one never: \(runs.map(\.frames))")
        if runs.count >= 2 {
            print(String(format: "c up %.2f s after it was dropped into the reloaded folder", runs[1].start - dropped))
            #expect(runs[1].start > dropped && runs[1].start - dropped < 1)
        }
    }
}
