import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// The play log (issue 36's proof of play) written by the real `marquee
/// play`: one whole line per item shown, the reason it ended, and what a
/// kill -9, logrotate and a torn file at the start leave; `GET /plays`.
@Suite(.serialized) struct PlayLogTests {
    /// A clip of test pattern and tone, `seconds` long (160x96 H.264, AAC).
    static func clip(_ seconds: Double) throws -> String {
        try Fixtures.path(Fixtures.clip("playlog-\(seconds)s", seconds: seconds, size: "160x96",
                                        video: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"],
                                        audio: ["-c:a", "aac"], container: "mp4"))
    }

    static func scratch(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every line of the file, each required to be a whole record; the
    /// file must end with its line break.
    static func records(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [PlayRecord] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(text.isEmpty || text.hasSuffix("\n"), "\(path) ends in half a line", sourceLocation: sourceLocation)
        return text.split(separator: "\n").compactMap { line in
            let record = PlayRecord(line: line)
            #expect(record != nil, "not a whole record: \(line)", sourceLocation: sourceLocation)
            return record
        }
    }

    static func instant(_ text: String) -> Double { WallTime(rfc3339: text)?.secondsSinceEpoch ?? .nan }

    /// Real time (null outputs on the monotonic clock): three clips of 1,
    /// 1.5 and 2 s give one line each, `end`, in order, each from where the
    /// one before it ended; `seconds` is each clip's length within 0.3 s
    /// (generous: a loaded CI machine opens files late) and agrees with
    /// `end - start` within 20 ms.
    @Test func aPlaylistPlayedToItsEndHasOneLinePerItem() throws {
        let folder = try Self.scratch("plays")
        let clips = try [1.0, 1.5, 2.0].map(Self.clip)
        let result = try MarqueeExecutable.run(["play"] + clips + ["--video-out", "null", "--audio-out", "null",
                                                                   "--play-log", "\(folder)/plays.jsonl"], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try Self.records("\(folder)/plays.jsonl")
        #expect(records.map(\.item) == clips)
        #expect(records.map(\.ended) == [.end, .end, .end])
        for (record, seconds) in zip(records, [1.0, 1.5, 2.0]) {
            #expect(abs(record.seconds - seconds) < 0.3, "\(record.item): \(record.seconds) s for a \(seconds) s clip")
            #expect(abs(Self.instant(record.end) - Self.instant(record.start) - record.seconds) < 0.02, "\(record)")
            #expect(record.display == "null 1920x1080" && record.playlist == nil)
        }
        for (earlier, later) in zip(records, records.dropFirst()) {
            #expect(Self.instant(later.start) >= Self.instant(earlier.end), "\(later.start) before \(earlier.end)")
        }
    }

    /// `next` through the control socket ends the item on screen as
    /// `command`; SIGTERM ends the next one as `shutdown`; `GET /plays`
    /// answers the lines ending at or after `since`, and 400 for a bad one.
    @Test func aCommandAndAShutdownEndAShowingAndGETPlaysAnswersSince() throws {
        let clip = try Self.clip(4)
        let folder = try Self.scratch("plays-http")
        let socket = "\(folder)/control.sock"
        let server = try HTTPPlayer(inputs: [clip, clip], playback: "loop = \"playlist\"\n[controls.socket]\npath = \"\(socket)\"\n"
                                        + "[log]\nplays = \"plays.jsonl\"", folder: folder)
        defer { _ = server.stop() }
        Thread.sleep(forTimeInterval: 1)
        let next = try MarqueeExecutable.run(["ctl", "--socket", socket, "next"])
        #expect(next.status == 0, "\(next.stderr)")
        Thread.sleep(forTimeInterval: 1)
        let (all, body) = try server.request("/plays")
        #expect(all == 200)
        let answered = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]]
        #expect(answered?.count == 1 && answered?.first?["ended"] as? String == "command", "\(body)")
        let first = try #require(try Self.records("\(folder)/plays.jsonl").first)
        // Half a millisecond more than the next one: the text is rounded down to the millisecond.
        let later = WallTime(secondsSinceEpoch: Self.instant(first.end) + 0.0015, utcOffset: 0).rfc3339
        for (since, count) in [(first.end, 1), (later, 0), ("1970-01-01T00:00:00Z", 1)] {
            let encoded = since.replacingOccurrences(of: "+", with: "%2B")
            let (status, answer) = try server.request("/plays?since=\(encoded)")
            let lines = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [Any]
            #expect(status == 200 && lines?.count == count, "since \(since): \(status) \(answer)")
        }
        let bad = try server.request("/plays?since=yesterday")
        #expect(bad.status == 400 && bad.body.contains("since=yesterday"), "\(bad)")

        server.player.send(SIGTERM)
        _ = server.stop()
        let records = try Self.records("\(folder)/plays.jsonl")
        #expect(records.map(\.ended) == [.command, .shutdown], "\(records)")
        #expect(records.count == 2 && records[1].seconds > 0.5)
    }

    /// kill -9 at 25 seeded moments of a looping show of short items (a
    /// line every few milliseconds untimed): the file only ever holds whole,
    /// parseable lines, and no start has to repair it.
    @Test func killNineLeavesOnlyWholeLines() throws {
        let clip = try Self.clip(0.2)
        let log = "\(try Self.scratch("plays-kill"))/plays.jsonl"
        var random = SeededGenerator(seed: 36)
        var total = 0
        for round in 0..<25 {
            let player = try BackgroundMarquee(["play", clip, clip, "--loop", "playlist", "--untimed", "--video-out", "null",
                                                "--audio-out", "null", "--play-log", log])
            // Killed at a seeded moment once it writes: on a loaded machine a start alone can take 0.5 s.
            let writing = Date().addingTimeInterval(10)
            while (try? Self.records(log).count) ?? 0 <= total, Date() < writing { Thread.sleep(forTimeInterval: 0.01) }
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.4, using: &random))
            player.send(SIGKILL)
            let stopped = player.stop()
            #expect(!stopped.stderr.contains("not whole"), "round \(round) found a torn line: \(stopped.stderr)")
            let count = try Self.records(log).count
            #expect(count >= total, "round \(round) lost lines")
            total = count
        }
        #expect(total > 25, "only \(total) lines in 25 runs")
    }

    /// logrotate's rename while a looping item plays (a line a pass,
    /// untimed): every line is in one of the two files, in order, none
    /// twice: each pass starts where the one before ended, across the two
    /// files, the passes ended are the player's end notifications, and the
    /// new file is 0640.
    @Test func aLogRenamedWhilePlayingLosesNoLine() throws {
        let clip = try Self.clip(0.2)
        let folder = try Self.scratch("plays-rotate")
        let log = "\(folder)/plays.jsonl"
        let player = try BackgroundMarquee(["play", clip, "--loop", "item", "--untimed", "--video-out", "null", "--audio-out", "null",
                                            "--play-log", log, "--stats", "\(folder)/stats.json"])
        Thread.sleep(forTimeInterval: 1.5)
        try FileManager.default.moveItem(atPath: log, toPath: log + ".1")
        Thread.sleep(forTimeInterval: 1.5)
        let stopped = player.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let (rotated, fresh) = (try Self.records(log + ".1"), try Self.records(log))
        #expect(!rotated.isEmpty && !fresh.isEmpty, "\(rotated.count) lines before the rename, \(fresh.count) after")
        let all = rotated + fresh
        for (earlier, later) in zip(all, all.dropFirst()) where later.start != earlier.end {
            Issue.record("a gap or a repeat: \(earlier.end) then \(later.start)")
            break
        }
        #expect(all.last?.ended == .shutdown)
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/stats.json"))) as? [String: Any]
        #expect(all.filter { $0.ended == .end }.count == stats?["endNotifications"] as? Int)
        let mode = try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    /// A last line without its line break (a power cut) is cut off at the
    /// start with one warning; the whole lines before it stay, new ones follow.
    @Test func aTornLogIsRepairedAtTheStartWithOneWarning() throws {
        let clip = try Self.clip(0.2)
        let log = "\(try Self.scratch("plays-torn"))/plays.jsonl"
        let whole = PlayRecord(item: clip, playlist: nil, display: "null 1920x1080", start: "2026-12-04T18:03:07.412+01:00",
                               end: "2026-12-04T18:03:07.612+01:00", seconds: 0.2, ended: .end).line + "\n"
        try (whole + whole + String(whole.prefix(50))).write(toFile: log, atomically: false, encoding: .utf8)
        let result = try MarqueeExecutable.run(["play", clip, "--untimed", "--video-out", "null", "--audio-out", "null", "--play-log", log])
        #expect(result.status == 0)
        #expect(result.stderr.components(separatedBy: "\n").filter { $0.contains("not whole") }.count == 1, "\(result.stderr)")
        let records = try Self.records(log)
        #expect(records.count == 3 && records.last?.ended == .end)
        #expect(try String(contentsOfFile: log, encoding: .utf8).hasPrefix(whole + whole))
    }
}
