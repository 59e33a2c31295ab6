import Foundation
import MarqueeTestSupport
import Testing

/// Issue 17: network sources that come and go, served by a real nginx on
/// loopback. Serialized: each test runs a player in real time for most of a minute.
@Suite(.serialized) struct NetworkSourceTests {
    /// `[playback] forward_buffer` for the outage test: the loss is said
    /// once what was read ahead before it has played.
    static let forwardBuffer = 1.0

    /// A 40 s VOD HLS stream of 2 s segments, made by ffmpeg's HLS muxer.
    static func vod() throws -> String {
        let folder = Fixtures.directory.appendingPathComponent("hls-vod-40s").path
        let playlist = "\(folder)/vod.m3u8"
        if FileManager.default.fileExists(atPath: playlist) { return folder }
        let partial = folder + "-partial"
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
        let result = try Command.run("ffmpeg", [
            "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x96:rate=25:duration=40",
            "-f", "lavfi", "-i", "sine=f=440:d=40", "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
            "-hls_segment_filename", "\(partial)/vod%03d.ts", "\(partial)/vod.m3u8",
        ])
        guard result.status == 0 else { throw CommandError.failed("ffmpeg hls", result) }
        try FileManager.default.moveItem(atPath: partial, toPath: folder)
        return folder
    }

    /// The server goes away for 20 s, then answers 503 for 20 s: the player
    /// says once that the source is lost and once that it is back, each
    /// time; holds the last frame without spinning; resumes where it was
    /// lost, counting no loop pass; and its attempts in the access log
    /// follow the back-off schedule (1, 2, 4 s, then the 4 s cap this test
    /// sets; each within 10 %).
    @Test func aServerThatGoesAwayIsWaitedForWithBackOffAndResumedWhereItWasLost() throws {
        let nginx = try Nginx(root: try Self.vod())
        try nginx.start()
        let folder = nginx.directory
        // Attempts 1, 2, 4, 4... s apart, so a 20 s outage ends within seconds of the server's return.
        try "[playback]\nretry_max = 4\nforward_buffer = \(Self.forwardBuffer)\n".write(toFile: "\(folder)/marquee.toml", atomically: true, encoding: .utf8)
        let player = try BackgroundMarquee(["play", nginx.url("vod.m3u8"), "--config", "\(folder)/marquee.toml",
                                            "--loop", "item", "--video-out", "null",
                                            "--audio-out", "null", "--stats", "\(folder)/stats.json",
                                            "--presentation-log", "\(folder)/presented.jsonl"])
        Thread.sleep(forTimeInterval: 5)
        nginx.stop()
        Thread.sleep(forTimeInterval: 4)
        let waitingFrom = player.cpuSeconds()
        Thread.sleep(forTimeInterval: 14)
        let waitingCPU = (player.cpuSeconds() - waitingFrom) / 14
        Thread.sleep(forTimeInterval: 2)
        try nginx.start()
        Thread.sleep(forTimeInterval: 6)
        let outageStart = Date().timeIntervalSince1970
        try nginx.start(answering: 503)
        Thread.sleep(forTimeInterval: 20)
        try nginx.start()
        Thread.sleep(forTimeInterval: 6)
        let result = player.stop()

        let lines = result.stderr.split(separator: "\n")
        print("stderr:\n\(result.stderr)\nCPU while waiting: \(waitingCPU * 100) % of a core")
        #expect(lines.filter { $0.contains(": lost (") }.count == 2, "one lost line an outage")
        #expect(lines.filter { $0.contains(": back after") }.count == 2, "one back line an outage")
        #expect(waitingCPU < 0.2, "the player used \(waitingCPU * 100) % of a core while the server was down")

        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/stats.json"))) as? [String: Any]
        #expect((stats?["seams"] as? [Any])?.count == 0, "a failed attempt was counted as a loop pass")
        #expect(stats?["sourceOutages"] as? Int == 2)

        // Resumed where it was lost: across each long hold, item time goes on by a frame.
        let frames = try PresentedFrame.read("\(folder)/presented.jsonl")
        let holds = zip(frames, frames.dropFirst()).filter { $1.display - $0.display > 1 }
        #expect(holds.count == 2, "expected two long holds, one an outage: \(holds.map { ($0.0.pts, $0.1.pts) })")
        for (before, after) in holds {
            #expect(after.pass == before.pass)
            #expect(after.pts > before.pts && after.pts - before.pts < 0.2,
                    "resumed at \(after.pts) s after losing the stream at \(before.pts) s")
        }

        // The 503s: attempts (playlist requests refused) 1, 2, 4, 4 s after the loss and each other.
        let refused = nginx.requests().filter { $0.time >= outageStart && $0.status == 503 }
        let attempts = refused.filter { $0.path.hasSuffix(".m3u8") }
        // The loss: libavformat's HLS reader asked for the segments left, each refused, then ended.
        let lost = try #require(refused.last { $0.path.hasSuffix(".ts") && $0.time < (attempts.first?.time ?? .infinity) })
        let gaps = zip([lost] + attempts, attempts).map { $1.time - $0.time }
        print("attempts \(gaps.map { String(format: "%.2f", $0) }) s apart")
        #expect(gaps.count >= 4, "only \(attempts.count) attempts while the server answered 503")
        // Reading ahead met the refusals first; the loss is said once the buffer read before them has played.
        let firstGap = try #require(gaps.first)
        #expect(firstGap >= 0.9 && firstGap <= Self.forwardBuffer + 1.6, "the first attempt came \(firstGap) s after the last refusal")
        for (index, gap) in gaps.prefix(5).enumerated().dropFirst() {
            let planned = min(pow(2, Double(index)), 4)
            #expect(gap >= planned * 0.9 - 0.05 && gap <= planned * 1.1 + 0.5,
                    "attempt \(index + 1) came \(gap) s after \(index == 0 ? "the loss" : "the one before"), planned \(planned) s")
        }
    }

    /// A progressive MP4 over HTTPS (a self-signed certificate), sent at
    /// twice its rate: the server stops for 12 s mid-file. The player waits
    /// for its buffer (a stall), gives the source up after 10 s without a
    /// byte (one lost line), and is back within a retry of the server (one
    /// back line); each hold on screen ends within a few frames of the one
    /// held, in the same pass (under load, frames drained at the loss may
    /// come after the clock has passed them, and are dropped as late), and
    /// the holds make at most two episodes.
    @Test func aProgressiveFileOverHTTPSResumesWhereItWasLost() throws {
        let file = URL(fileURLWithPath: try Fixtures.path(Fixtures.indexed(seconds: 40, fps: 25, size: "160x96")))
        let nginx = try Nginx(root: file.deletingLastPathComponent().path, tls: true)
        // Sent at twice its rate, so the file is not all in socket buffers when the server stops.
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        try nginx.start(bytesPerSecond: size / 20)
        let work = nginx.directory
        try "[playback]\nretry_max = 2\nforward_buffer = 1\n".write(toFile: "\(work)/marquee.toml", atomically: true, encoding: .utf8)
        let player = try BackgroundMarquee(["play", nginx.url(file.lastPathComponent), "--config", "\(work)/marquee.toml",
                                            "--video-out", "null", "--audio-out", "null",
                                            "--presentation-log", "\(work)/presented.jsonl"])
        Thread.sleep(forTimeInterval: 5)
        nginx.stop()
        Thread.sleep(forTimeInterval: 12)
        try nginx.start(bytesPerSecond: size / 20)
        Thread.sleep(forTimeInterval: 8)
        let result = player.stop()
        print(result.stderr)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains(": lost (") }.count == 1 && lines.filter { $0.contains(": back after") }.count == 1,
                "\(lines)")
        #expect(lines.allSatisfy { $0.range(of: #"\((1 attempt|([02-9]|[1-9][0-9]+) attempts)\)$"#, options: .regularExpression) != nil
                                   || !$0.contains(": back after") }, "\(lines)")
        let frames = try PresentedFrame.read("\(work)/presented.jsonl")
        let holds = zip(frames, frames.dropFirst()).filter { $1.display - $0.display > 1 }
        // Frames drained at the loss follow the audio clock, which has run dry
        // with the source, so one outage can show as a few holds a frame apart.
        let episodes = zip(holds, holds.dropFirst()).filter { $1.0.pts - $0.1.pts > 0.2 }.count + (holds.isEmpty ? 0 : 1)
        #expect((1...2).contains(episodes),
                "holds: the stall and the outage: \(holds.map { ($0.0.pts, $0.1.pts, $0.0.display, $0.1.display) })")
        for (before, after) in holds {
            #expect(after.pass == before.pass && after.pts > before.pts && after.pts - before.pts < 0.2,
                    "resumed at \(after.pts) s after the frame at \(before.pts) s")
        }
        #expect((frames.last?.pts ?? 0) > 12, "played on after the outage")
    }

    /// Bad network input: a refused connection, a 404, a playlist that is
    /// not HLS and a stream of garbage. Beside a good file, each is one line
    /// naming it and the file plays; alone, one is waited for with one line
    /// and no spinning.
    @Test func badNetworkInputIsOneLineEachAndTheShowGoesOn() throws {
        let www = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-bad-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        try "#EXTM3U\nthis is not a playlist\n".write(toFile: "\(www)/text.m3u8", atomically: true, encoding: .utf8)
        var generator = SeededGenerator(seed: 17)
        try Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: "\(www)/garbage.ts"))
        let nginx = try Nginx(root: www)
        try nginx.start()
        let refused = "http://127.0.0.1:\(try Self.closedPort())/live.m3u8"
        let bad = [refused, nginx.url("missing.m3u8"), nginx.url("text.m3u8"), nginx.url("garbage.ts")]
        let good = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 25))
        let result = try MarqueeExecutable.run(["play"] + bad + [good, "--video-out", "null", "--audio-out", "null", "--untimed",
                                                                  "--stats", "\(www)/stats.json"], timeout: 60)
        print(result.stderr)
        #expect(!result.timedOut)
        let lines = result.stderr.split(separator: "\n")
        for url in bad {
            #expect(lines.filter { $0.hasPrefix("marquee: \(url):") }.count == 1, "\(url): \(lines)")
        }
        #expect(lines.count == bad.count, "one line each, nothing else: \(lines)")
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(www)/stats.json"))) as? [String: Any]
        #expect(stats?["framesPresented"] as? Int == 25, "the good file after them played")

        for url in bad {
            let alone = try BackgroundMarquee(["play", url, "--video-out", "null", "--audio-out", "null"])
            Thread.sleep(forTimeInterval: 1)
            let from = alone.cpuSeconds()
            Thread.sleep(forTimeInterval: 6)
            let cpu = (alone.cpuSeconds() - from) / 6
            let waited = alone.stop()
            let said = waited.stderr.split(separator: "\n")
            #expect(said.count == 1 && said.first?.hasPrefix("marquee: \(url): lost (") == true, "\(url) alone: \(said)")
            #expect(cpu < 0.2, "\(url) alone: \(cpu * 100) % of a core while waiting")
        }
    }

    /// A server that sends the stream at about half its bit rate (nginx's
    /// `limit_rate`): the buffer runs dry again and again. Each time, the
    /// player says it stalled, time control goes to waiting (to minimize
    /// stalls) and back to playing once the forward buffer holds 2 s again;
    /// every frame is shown, in order, none dropped, and the only long holds
    /// on screen are the stalls (and the start's fill); `--stats` counts them.
    @Test func aSlowSourceWaitsForItsBufferInsteadOfStuttering() throws {
        let folder = try Self.vod()
        let bytes = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ts") }
            .reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: "\(folder)/\($1)")[.size] as? Int) ?? 0) }
        let bytesPerSecond = bytes / 40
        let nginx = try Nginx(root: folder)
        // nginx lets each request send a second ahead of its rate, and libavformat fetches two segments at
        // once (http_multiple): at 25 % a connection, the stream comes at about half its rate.
        try nginx.start(bytesPerSecond: bytesPerSecond * 25 / 100)
        let work = nginx.directory
        try "[log]\nstatus_interval = 0.25\n[playback]\nforward_buffer = 2\n".write(toFile: "\(work)/marquee.toml", atomically: true, encoding: .utf8)
        let player = try BackgroundMarquee(["play", nginx.url("vod.m3u8"), "--config", "\(work)/marquee.toml",
                                            "--video-out", "null", "--audio-out", "null", "--stats", "\(work)/stats.json",
                                            "--presentation-log", "\(work)/presented.jsonl"])
        Thread.sleep(forTimeInterval: 30)
        let result = player.stop()
        #expect(result.stderr.isEmpty, "\(result.stderr)")

        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(work)/stats.json"))) as? [String: Any]
        let stalls = stats?["stalls"] as? Int ?? 0
        let stalled = stats?["stalledSeconds"] as? Double ?? 0
        print("stream \(bytesPerSecond * 8 / 1000) kbit/s limited to 25 % a connection: \(stalls) stalls, \(stalled) s waiting")
        #expect(stalls >= 2, "the buffer ran dry \(stalls) times")
        #expect(stalled > 2)
        #expect(stats?["framesDropped"] as? Int == 0)

        // Every frame in order, and time held still only at the stalls.
        let frames = try PresentedFrame.read("\(work)/presented.jsonl")
        let steps = zip(frames, frames.dropFirst())
        #expect(steps.allSatisfy { abs($1.pts - $0.pts - 0.04) < 0.001 }, "a frame was skipped or repeated")
        let holds = steps.filter { $1.display - $0.display > 0.2 }.count
        #expect(holds >= stalls && holds <= stalls + 1, "\(holds) long holds on screen for \(stalls) stalls")

        // Events on stdout: each stall, then waiting to minimize stalls, then playing.
        let events = result.stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let sequence = events.compactMap { event -> String? in
            switch event["event"] as? String {
            case "stalled": "stalled"
            case "timeControl": "\(event["status"] as? String ?? "")/\(event["reason"] as? String ?? "")"
            default: nil
            }
        }
        for (index, name) in sequence.enumerated() where name == "stalled" {
            // The test's stop may come in the last wait.
            if sequence.count == index + 3, sequence.last == "paused/" { continue }
            #expect(Array(sequence[(index + 1)...].prefix(2)) == ["waitingToPlayAtSpecifiedRate/toMinimizeStalls", "playing/"],
                    "after a stall: \(sequence[(index + 1)...].prefix(2))")
        }
        #expect(sequence.filter { $0 == "stalled" }.count == stalls)
        let waitingStatus = events.filter { $0["event"] as? String == "status" && $0["waiting"] as? String == "toMinimizeStalls" }
        #expect(!waitingStatus.isEmpty && waitingStatus.allSatisfy { $0["likelyToKeepUp"] as? Bool == false },
                "status while waiting: \(waitingStatus.prefix(3))")
    }

    /// A loopback port nothing listens on (bound, then closed).
    static func closedPort() throws -> UInt16 {
        let nginx = try Nginx(root: "/nonexistent")
        return nginx.port
    }
}

/// The real `marquee` running in the background, its output collected, stopped with SIGINT.
final class BackgroundMarquee {
    private let process = Process()
    private let output: String
    private let errors: String

    /// - Parameter environment: variables set for the child on top of the test's own.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-run-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        output = "\(folder)/stdout"
        errors = "\(folder)/stderr"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.executableURL = URL(fileURLWithPath: MarqueeExecutable.path)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
    }

    var isRunning: Bool { process.isRunning }
    var pid: Int32 { process.processIdentifier }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// What the process has written on stdout so far.
    func outputSoFar() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

    /// Waits until the player has written `text` on stderr; false after `timeout` seconds.
    func waitForError(containing text: String, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// User plus system CPU seconds the process has used (from /proc).
    func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the line; 12 and 13 after the name.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() -> (status: Int32, stdout: String, stderr: String) {
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return (process.terminationStatus, read(output), read(errors))
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
