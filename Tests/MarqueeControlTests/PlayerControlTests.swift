import Foundation
import MarqueeControl
import MarqueeTestSupport
import Testing

/// Must-show 2: every command against a running headless `marquee play`
/// (real time, null outputs), checked in its replies, its status and the
/// stats it writes at exit; and 10,000 random lines that neither crash nor
/// stall it.
@Suite(.serialized) struct PlayerControlTests {
    static func clip() async throws -> String {
        try await Blocking.run { try Fixtures.path(Fixtures.indexed(seconds: 4, fps: 10, size: "160x120")) }
    }

    static func tempPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("control-\(UUID().uuidString)\(suffix)").path
    }

    static func seconds(_ text: String?) -> Double { text.flatMap(Double.init) ?? -1 }

    @Test func everyCommandActsOnARunningPlayer() async throws {
        let clip = try await Self.clip()
        let stats = Self.tempPath(".json")
        let player = try PlayerProcess(["play", clip, clip, clip, "--video-out", "null", "--audio-out", "null",
                                        "--control", "text", "--stats", stats])
        var status = try await player.status()
        #expect(status["state"] == "playing" && status["item"] == "1/3", "\(status)")

        // pause: time stands still; play: it moves again.
        #expect(try await player.reply("pause") == "ok")
        try await Blocking.sleep(0.2)
        let paused = Self.seconds(try await player.status()["time"])
        try await Blocking.sleep(0.4)
        status = try await player.status()
        #expect(status["state"] == "paused")
        #expect(Self.seconds(status["time"]) == paused)
        #expect(try await player.reply("play") == "ok")
        #expect(try await player.status()["state"] == "playing")
        // Time moves again (polled: a loaded machine may take a moment to show the next frames).
        let resumed = Date()
        while Self.seconds(try await player.status()["time"]) <= paused + 0.2, Date().timeIntervalSince(resumed) < 10 { try await Blocking.sleep(0.05) }
        #expect(Self.seconds(try await player.status()["time"]) > paused + 0.2)

        #expect(try await player.reply("toggle") == "ok")
        #expect(try await player.status()["state"] == "paused")
        #expect(try await player.reply("toggle") == "ok")
        #expect(try await player.status()["state"] == "playing")

        // Seeks: absolute, then relative to where the last one went.
        #expect(try await player.reply("pause") == "ok")
        #expect(try await player.reply("seek 2") == "ok")
        #expect(try await player.reply("seek +1") == "ok")
        #expect(try await player.reply("seek -0.5") == "ok")
        #expect(Self.seconds(try await player.status()["time"]) == 2.5)
        try await Blocking.sleep(0.5)
        // Paused, the new position is shown and stays.
        #expect(abs(Self.seconds(try await player.status()["time"]) - 2.5) < 0.11)

        #expect(try await player.reply("stop") == "ok")
        try await Blocking.sleep(0.3)
        status = try await player.status()
        #expect(status["state"] == "paused" && Self.seconds(status["time"]) < 0.11, "\(status)")
        #expect(try await player.reply("play") == "ok")

        // The playlist.
        #expect(try await player.reply("prev") == "error: prev: already at the first item")
        #expect(try await player.reply("next") == "ok")
        #expect(try await player.status()["item"] == "2/3")
        #expect(try await player.reply("goto 3") == "ok")
        #expect(try await player.status()["item"] == "3/3")
        #expect(try await player.reply("next") == "error: next: already at the last item (3 of 3)")
        #expect(try await player.reply("prev") == "ok")
        #expect(try await player.status()["item"] == "2/3")
        #expect(try await player.reply("goto 4") == "error: goto: no item 4; the playlist has 3")
        #expect(try await player.reply("goto 3") == "ok")
        #expect(try await player.reply("loop playlist") == "ok")
        #expect(try await player.reply("next") == "ok")
        status = try await player.status()
        #expect(status["item"] == "1/3" && status["loop"] == "playlist", "\(status)")
        #expect(try await player.reply("loop item") == "ok")
        #expect(try await player.status()["loop"] == "item")

        // Rate (its effect on presentation: `rateChangesHowFastFramesArePresented`).
        #expect(try await player.reply("rate 2") == "ok")
        status = try await player.status()
        #expect(status["rate"] == "2" && status["state"] == "playing", "\(status)")

        #expect(try await player.reply("volume 0.5") == "ok")
        #expect(try await player.reply("mute") == "ok")
        status = try await player.status()
        #expect(status["volume"] == "0.5" && status["muted"] == "true")
        #expect(try await player.reply("unmute") == "ok")
        #expect(try await player.status()["muted"] == "false")

        #expect(try await player.reply("reload") == "error: reload: no configuration file to reload (start with --config FILE)")
        #expect(try await player.reply("paws") == "error: unknown command 'paws' (did you mean 'pause'?)")
        #expect(try await player.reply("quit") == "ok quitting")
        #expect(await player.waitForExit() == 0)
        // It stopped the clean way: the stats were written, and frames were presented.
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
        #expect((written?["framesPresented"] as? Int ?? 0) > 5)
    }

    /// `rate R` in the presentation log: media time per second of display
    /// time, between commands, on the clock both processes share. Without
    /// audio the player's master clock is the monotonic clock, so the check
    /// holds on a loaded machine too (late frames are dropped, not slowed).
    @Test func rateChangesHowFastFramesArePresented() async throws {
        let clip = try await Self.clip()
        let log = Self.tempPath(".jsonl")
        let player = try PlayerProcess(["play", clip, "--video-out", "null", "--no-audio", "--loop", "item",
                                        "--control", "text", "--presentation-log", log])
        try await Blocking.sleep(0.5)
        var marks: [Double] = []
        for rate in ["2", "0.5"] {
            #expect(try await player.reply("rate \(rate)") == "ok")
            marks.append(Self.monotonicSeconds())
            try await Blocking.sleep(2.0)
        }
        marks.append(Self.monotonicSeconds())
        #expect(try await player.reply("quit") == "ok quitting")
        #expect(await player.waitForExit() == 0)
        let frames = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.compactMap { frame -> (pts: Double, shown: Double)? in
            guard let pts = frame["pts"] as? Double, let shown = frame["displayTime"] as? Double else { return nil }
            return (pts, shown)
        }
        for (index, expected) in [2.0, 0.5].enumerated() {
            // From 0.5 s after the command (the clock settles) to the next one; loop wraps skipped.
            let window = frames.filter { $0.shown > marks[index] + 0.5 && $0.shown < marks[index + 1] }
            var media = 0.0, shown = 0.0
            for (a, b) in zip(window, window.dropFirst()) where b.pts > a.pts {
                media += b.pts - a.pts
                shown += b.shown - a.shown
            }
            #expect(shown > 0.5, "rate \(expected): only \(window.count) frames (\(log))")
            let speed = media / shown
            #expect(abs(speed - expected) < expected * 0.15, "rate \(expected): played at \(speed)x (\(log))")
        }
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    @Test func jsonRequestsAreAnsweredWithTheirIds() async throws {
        let clip = try await Self.clip()
        let player = try PlayerProcess(["play", clip, "--video-out", "null", "--audio-out", "null", "--control", "json", "--loop", "item"])
        #expect(try await player.reply(#"{"command": "seek", "args": ["+1"], "id": 7}"#) == #"{"id":7,"result":"ok"}"#)
        let status = try #require(try await player.reply(#"{"command": "status", "id": "s"}"#))
        #expect(status.hasPrefix(#"{"id":"s","result":{"#) && status.contains(#""loop":"item""#), "\(status)")
        #expect(try await player.reply(#"{"command": "seek", "id": 8}"#) == #"{"id":8,"error":"usage: seek SECONDS | +SECONDS | -SECONDS"}"#)
        #expect(try await player.reply("not json")?.hasPrefix(#"{"id":null,"error":"malformed JSON"#) == true)
        #expect(try await player.reply(#"{"command":"quit","id":9}"#) == #"{"id":9,"result":"quitting"}"#)
        #expect(await player.waitForExit() == 0)
    }

    /// 10,000 random and malformed lines (no quit or loop change among them,
    /// so the run ends when the test says): every non-blank line is answered,
    /// the player still answers `status` promptly, and it quits cleanly.
    @Test(arguments: [CommandFormat.text, .json])
    func tenThousandRandomLinesNeitherCrashNorStallThePlayer(format: CommandFormat) async throws {
        let clip = try await Self.clip()
        let player = try PlayerProcess(["play", clip, clip, "--video-out", "null", "--audio-out", "null",
                                        "--control", format.rawValue, "--loop", "playlist"])
        // Sending and counting replies block on pipes: on their own threads.
        let expected = try await Blocking.run { () -> Int in
            var random = SeededGenerator(seed: 0xc0ffee)
            var expected = 0
            var splitter = LineSplitter()
            var sent = 0
            while sent < 10_000 {
                var bytes = RandomLines.line(using: &random, format: format)
                if bytes.count > 600 { bytes.removeLast(bytes.count - 600) }
                var probe = splitter
                let pieces = probe.feed(bytes + [0x0A])
                guard let replies = Self.repliesDue(pieces, format: format) else { continue }
                _ = splitter.feed(bytes + [0x0A])
                expected += replies
                try player.send(bytes: bytes + [0x0A])
                sent += 1
            }
            return expected
        }
        let answered = try await Blocking.run { () -> Int in
            var answered = 0
            while answered < expected, player.nextLineBlocking(timeout: 30) != nil { answered += 1 }
            return answered
        }
        #expect(answered == expected, "\(player.stderr.suffix(2000))")
        let started = Date()
        let status = try await player.reply(format == .text ? "status" : #"{"command":"status","id":1}"#, timeout: 5) ?? ""
        #expect(status.hasPrefix(format == .text ? "ok state=" : #"{"id":1,"result":{"#), "\(status)")
        #expect(Date().timeIntervalSince(started) < 2, "status took \(Date().timeIntervalSince(started)) s")
        #expect(try await player.reply(format == .text ? "quit" : #"{"command":"quit"}"#) != nil)
        #expect(await player.waitForExit() == 0)
    }

    /// How many replies `pieces` earn; nil when they hold a command the fuzz
    /// run must not send (one that ends the run or stops the playlist looping).
    static func repliesDue(_ pieces: [LineSplitter.Piece], format: CommandFormat) -> Int? {
        var replies = 0
        for piece in pieces {
            guard case .line(let text) = piece else { replies += 1; continue }
            do {
                guard let request = try ControlRequest.parse(text, format: format) else { continue }
                switch request.command {
                case .quit, .loop, .reload: return nil
                default: replies += 1
                }
            } catch {
                replies += 1
            }
        }
        return replies
    }
}
