import Foundation
import Marquee
import MarqueeTestSupport
import Synchronization
import Testing

/// `PlayRecorder` fed events by hand on manual clocks, and `PlayLogFile`'s
/// repair, rotation and failures: what each showing's line says.
@Suite struct PlayRecorderTests {
    /// A wall clock that moves with the test, one hour east of UTC.
    final class SteppedWallClock: WallClock {
        private let seconds = Mutex(1_796_403_787.0)
        func now() -> WallTime { WallTime(secondsSinceEpoch: seconds.withLock { $0 }, utcOffset: 3600) }
        func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
    }

    final class Warnings: Sendable {
        let lines = Mutex<[String]>([])
    }

    final class Rig {
        let path: String
        let wall = SteppedWallClock()
        let host = ManualClock()
        let warnings = Warnings()
        let recorder: PlayRecorder

        init(path: String? = nil) throws {
            self.path = path ?? FileManager.default.temporaryDirectory.appendingPathComponent("plays-\(UUID().uuidString).jsonl").path
            let warnings = self.warnings
            recorder = PlayRecorder(file: try PlayLogFile(path: self.path, warn: { _ in }), display: "HDMI-A-1",
                                    wallClock: wall, hostClock: host, warn: { line in warnings.lines.withLock { $0.append(line) } })
        }

        func wait(_ seconds: Double) {
            wall.advance(seconds)
            host.advance(by: .milliseconds(Int64(seconds * 1000)))
        }

        var records: [PlayRecord] { (try? PlayLogFile.records(at: path)) ?? [] }
    }

    @Test func eachLoopPassIsALineAndTheNextItemStartsAfresh() throws {
        let rig = try Rig()
        let (a, b) = (PlayerItem(source: "/media/a.mp4"), PlayerItem(source: "/media/b.mp4"))
        rig.recorder.handle(.currentItemChanged(a))
        rig.wait(2)
        rig.recorder.handle(.didPlayToEnd(a))
        rig.wait(2.0004)
        rig.recorder.handle(.didPlayToEnd(a))
        // The next item at once: the pass begun at the end above never showed.
        rig.recorder.handle(.currentItemChanged(b))
        rig.wait(1)
        rig.recorder.handle(.didPlayToEnd(b))
        rig.recorder.handle(.currentItemChanged(nil))
        rig.recorder.handle(.playbackFinished)
        rig.recorder.end(reason: .shutdown)
        let records = rig.records
        #expect(records.map(\.item) == ["/media/a.mp4", "/media/a.mp4", "/media/b.mp4"])
        #expect(records.map(\.ended) == [.end, .end, .end])
        #expect(records.map(\.seconds) == [2, 2, 1])
        #expect(records[0].start == "2026-12-04T18:03:07.000+01:00" && records[0].end == "2026-12-04T18:03:09.000+01:00")
        #expect(records[1].start == records[0].end && records[1].end == "2026-12-04T18:03:11.000+01:00")
        #expect(records[2].end == "2026-12-04T18:03:12.000+01:00")
        #expect(records.allSatisfy { $0.display == "HDMI-A-1" && $0.playlist == nil })
        let line = try String(contentsOfFile: rig.path, encoding: .utf8).split(separator: "\n")[0]
        #expect(line == #"{"item":"/media/a.mp4","playlist":null,"display":"HDMI-A-1","start":"2026-12-04T18:03:07.000+01:00","#
            + #""end":"2026-12-04T18:03:09.000+01:00","seconds":2.000,"ended":"end"}"#)
    }

    @Test func theReasonSaysWhoEndedIt() throws {
        let rig = try Rig()
        let items = (1...5).map { PlayerItem(source: "/media/\($0).mp4") }
        rig.recorder.playlist = "morning"
        rig.recorder.handle(.currentItemChanged(items[0]))
        rig.wait(1)
        rig.recorder.nextEndReason = .command
        rig.recorder.handle(.currentItemChanged(items[1]))
        rig.recorder.playlist = "evening"
        rig.wait(1)
        rig.recorder.nextEndReason = .schedule
        rig.recorder.handle(.currentItemChanged(items[2]))
        rig.wait(1)
        // The source reads ahead: the failure comes before the pass's end is on screen.
        rig.recorder.handle(.failedToPlayToEnd(items[2], CancellationError()))
        rig.recorder.handle(.didPlayToEnd(items[2]))
        rig.recorder.handle(.currentItemChanged(items[3]))
        rig.wait(1)
        rig.recorder.end(reason: .screenOff)
        // Off: its end is not another line.
        rig.recorder.handle(.didPlayToEnd(items[3]))
        rig.recorder.handle(.currentItemChanged(items[4]))
        rig.wait(0.5)
        rig.recorder.end(reason: .shutdown)
        let records = rig.records
        #expect(records.map(\.ended) == [.command, .schedule, .error, .screenOff, .shutdown])
        #expect(records.map(\.playlist) == ["morning", "morning", "evening", "evening", "evening"])
        #expect(records.last?.seconds == 0.5)
    }

    @Test func aFailingWriteIsOneWarningAndRecordingGoesOn() throws {
        // /dev/full takes the open and refuses every write with ENOSPC.
        let rig = try Rig(path: "/dev/full")
        let item = PlayerItem(source: "/media/a.mp4")
        rig.recorder.handle(.currentItemChanged(item))
        for _ in 0..<3 { rig.recorder.handle(.didPlayToEnd(item)) }
        let warnings = rig.warnings.lines.withLock { $0 }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("play log /dev/full: write: No space left on device") == true, "\(warnings)")
    }

    @Test func aTornLastLineIsCutBackOnceAtOpen() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("torn-\(UUID().uuidString).jsonl").path
        let whole = PlayRecord(item: "a", playlist: nil, display: "d", start: "s", end: "e", seconds: 1, ended: .end).line + "\n"
        try (whole + whole + #"{"item":"b","play"#).write(toFile: path, atomically: false, encoding: .utf8)
        var warnings: [String] = []
        _ = try PlayLogFile(path: path, warn: { warnings.append($0) })
        #expect(warnings.count == 1 && warnings[0].contains("not whole (17 bytes"), "\(warnings)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == whole + whole)
        _ = try PlayLogFile(path: path, warn: { warnings.append($0) })
        #expect(warnings.count == 1, "a whole file was repaired again")
    }

    @Test func aRenamedLogIsFollowedByANewFileAtThePath() throws {
        let rig = try Rig()
        let item = PlayerItem(source: "/media/a.mp4")
        rig.recorder.handle(.currentItemChanged(item))
        rig.recorder.handle(.didPlayToEnd(item))
        try FileManager.default.moveItem(atPath: rig.path, toPath: rig.path + ".1")
        rig.recorder.handle(.didPlayToEnd(item))
        try FileManager.default.removeItem(atPath: rig.path)
        rig.recorder.handle(.didPlayToEnd(item))
        #expect(try PlayLogFile.records(at: rig.path + ".1").count == 1)
        #expect(rig.records.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: rig.path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }
}
