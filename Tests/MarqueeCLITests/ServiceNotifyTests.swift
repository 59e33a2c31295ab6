import Foundation
import Glibc
import MarqueeTestSupport
import Testing

/// Issue 20: `marquee play` under a service manager's `Type=notify` and
/// `WatchdogSec=`, read from the socket `NOTIFY_SOCKET` names (real time).
@Suite(.serialized) struct ServiceNotifyTests {
    /// A configuration looping a 2 s clip (or the folder given).
    static func show(playlist: String? = nil) throws -> String {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-service-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let entry = try playlist ?? Fixtures.path(Fixtures.indexed(seconds: 2))
        try """
        [playback]
        playlist = ["\(entry)"]
        loop = "playlist"
        """.write(toFile: "\(work)/marquee.toml", atomically: true, encoding: .utf8)
        return work
    }

    static func start(_ work: String, listener: NotifyListener, environment: [String: String] = [:]) throws -> BackgroundMarquee {
        try BackgroundMarquee(["play", "--config", "\(work)/marquee.toml", "--video-out", "null", "--audio-out", "null", "--control", "off"],
                              environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "1000000"].merging(environment) { $1 })
    }

    /// READY=1 with what plays once the first frame is up; WATCHDOG=1 about
    /// every 0.5 s (half of WATCHDOG_USEC) while it plays; RELOADING=1 with
    /// the monotonic time, then READY=1, around SIGHUP; STOPPING=1 last.
    @Test func readyStatusWatchdogReloadAndStop() throws {
        let listener = try NotifyListener()
        let work = try Self.show()
        let marquee = try Self.start(work, listener: listener)
        let ready = listener.read(for: 10) { $0.hasPrefix("READY=1") }
        #expect(ready == "READY=1\nSTATUS=playing \(URL(fileURLWithPath: try Fixtures.path(Fixtures.indexed(seconds: 2))).lastPathComponent)",
                "\(listener.messages)")
        let readyAt = NotifyListener.now()
        listener.read(for: 3)
        let pings = listener.pings.filter { $0 > readyAt }
        #expect((5...7).contains(pings.count), "\(pings.count) pings in 3 s")
        #expect(zip(pings, pings.dropFirst()).allSatisfy { $1 - $0 < 0.75 }, "\(pings)")

        marquee.send(SIGHUP)
        let sent = NotifyListener.now()
        let reloading = listener.read(for: 5) { $0.hasPrefix("RELOADING=1") }
        let monotonic = reloading?.split(separator: "\n").last.flatMap { $0.hasPrefix("MONOTONIC_USEC=") ? Double($0.dropFirst(15)) : nil }
        #expect(monotonic.map { abs($0 / 1e6 - sent) < 2 } == true, "\(reloading ?? "no RELOADING=1")")
        #expect(listener.read(for: 5) { $0.hasPrefix("READY=1") }?.contains("STATUS=playing") == true, "\(listener.messages.suffix(3))")

        let (status, _, stderr) = marquee.stop()
        listener.read(for: 0.5)
        #expect(status == 0, "\(stderr)")
        #expect(listener.messages.last?.text == "STOPPING=1", "\(listener.messages.suffix(3))")
    }

    /// A stage held inside a step for real (the test hook, 1.5 s after the
    /// stages start, about 1 s after the first ping): the pings stop within
    /// the limit plus a tick (0.5 + 0.5 s) and do not come back; one line
    /// says which stage. A stuck presenter stands for a page
    /// flip that never completes, a stuck source for a decoder.
    @Test(arguments: ["present", "source"]) func aStalledStageStopsTheWatchdog(_ stage: String) throws {
        let listener = try NotifyListener()
        let work = try Self.show()
        let marquee = try Self.start(work, listener: listener, environment: ["MARQUEE_TEST_STALL_STAGE": stage,
                                                                             "MARQUEE_TEST_STALL_STAGE_AFTER_MS": "1500"])
        listener.read(for: 6)
        // The stalled stage never returns: only SIGKILL ends the process (systemd's too, after its stop timeout).
        marquee.send(SIGKILL)
        let (_, _, stderr) = marquee.stop()
        let first = listener.pings.first ?? 0
        let pings = listener.pings.map { $0 - first }
        #expect(pings.count >= 2, "pings before the stall: \(pings)")
        #expect(!pings.contains { $0 > 2.6 }, "pings after the stall: \(pings)")
        let lines = stderr.split(separator: "\n").filter { $0.contains("watchdog:") }
        #expect(lines.count == 1 && lines.first?.contains("the \(stage) stage has been inside one step") == true, "\(stderr)")
    }

    /// A player that cannot start (its output cannot be made) under a
    /// watchdog exits 1 with its one line: the unstarted watchdog is let go
    /// cleanly (libdispatch traps on releasing a source never resumed).
    @Test func aPlayerThatCannotStartExitsWithItsLine() throws {
        let listener = try NotifyListener()
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1))
        let marquee = try BackgroundMarquee(["play", clip, "--video-out", "file:/nonexistent/frames", "--audio-out", "null"],
                                            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "1000000"])
        let deadline = Date(timeIntervalSinceNow: 10)
        while marquee.isRunning, Date() < deadline { usleep(20_000) }
        let (status, _, stderr) = marquee.stop()
        #expect(status == 1 && stderr == "marquee: /nonexistent/frames: mkdir: No such file or directory\n", "\(status): \(stderr)")
    }

    /// An abstract socket name ('@...') works as a path does.
    @Test func anAbstractSocketNameIsReached() throws {
        let listener = try NotifyListener(abstract: true)
        let marquee = try Self.start(try Self.show(), listener: listener)
        let ready = listener.read(for: 10) { $0.hasPrefix("READY=1") }
        _ = marquee.stop()
        #expect(ready?.hasPrefix("READY=1\nSTATUS=playing") == true, "\(listener.messages)")
    }

    /// The watchdog of another process (`WATCHDOG_PID`, a wrapper that
    /// started marquee) is not pinged; a `WATCHDOG_USEC` that is not a
    /// number is one line and no pings. Readiness is told all the same.
    @Test(arguments: [["WATCHDOG_PID": "1"], ["WATCHDOG_USEC": "soon"]])
    func aWatchdogThatIsNotOursIsNotPinged(_ environment: [String: String]) throws {
        let listener = try NotifyListener()
        let marquee = try Self.start(try Self.show(), listener: listener, environment: environment)
        listener.read(for: 4)
        let (status, _, stderr) = marquee.stop()
        #expect(status == 0 && listener.messages.contains { $0.text.hasPrefix("READY=1") }, "\(listener.messages)")
        #expect(listener.pings.isEmpty, "\(listener.pings.count) pings")
        let expected = environment["WATCHDOG_USEC"].map { ["marquee: WATCHDOG_USEC='\($0)' is not a positive number of microseconds; no watchdog pings"] } ?? []
        #expect(stderr.split(separator: "\n").map(String.init) == expected, "\(stderr)")
    }

    /// An empty folder at the start is a settled state: READY=1 at once, and
    /// STATUS= says what it waits for.
    @Test func waitingForFilesIsReady() throws {
        let listener = try NotifyListener()
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        let marquee = try Self.start(try Self.show(playlist: media), listener: listener)
        let ready = listener.read(for: 5) { $0.hasPrefix("READY=1") }
        listener.read(for: 1.5)
        _ = marquee.stop()
        #expect(ready?.hasPrefix("READY=1\nSTATUS=waiting for files in '\(media)'") == true, "\(listener.messages)")
        #expect(listener.pings.count >= 2, "waiting is idle on purpose: \(listener.messages)")
    }

    /// A stream that cannot be reached at the start is waited for (the show
    /// has nothing else): READY=1 says so, and the pings go on while it waits.
    @Test func waitingForAStreamIsReady() throws {
        let listener = try NotifyListener()
        // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
        let url = "http://127.0.0.1:9/none.ts"
        let marquee = try Self.start(try Self.show(playlist: url), listener: listener)
        let ready = listener.read(for: 10) { $0.hasPrefix("READY=1") }
        listener.read(for: 1.5)
        _ = marquee.stop()
        #expect(ready?.hasPrefix("READY=1\nSTATUS=waiting for \(url)") == true, "\(listener.messages)")
        #expect(listener.pings.count >= 2, "waiting for a stream is idle on purpose: \(listener.messages)")
    }

    /// Width and height from a PNG's header.
    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// `--splash` is the first picture out, before the first item's frames;
    /// one that cannot be read is one line and the background instead (the
    /// 16x16 picture of one colour), and the show goes on.
    @Test func theSplashComesFirstAndABadOneIsOneLine() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-splash-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let made = try Command.run("ffmpeg", ["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                              "color=c=red:size=64x48", "-frames:v", "1", "\(work)/splash.png"])
        guard made.status == 0 else { throw CommandError.failed("ffmpeg splash.png", made) }
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1))
        for (splash, size) in [("\(work)/splash.png", (64, 48)), ("\(work)/missing.png", (16, 16))] {
            let frames = "\(work)/frames-\(size.0)"
            try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
            let result = try MarqueeExecutable.run(["play", clip, "--splash", splash, "--untimed", "--video-out", "file:\(frames)",
                                                    "--audio-out", "null"])
            #expect(result.status == 0, "\(result.stderr)")
            let written = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasSuffix(".png") }
            #expect(written.count == 26, "the splash and 25 frames: \(written.count)")
            let first = try Self.pngSize("\(frames)/frame-000001.png"), second = try Self.pngSize("\(frames)/frame-000002.png")
            #expect(first == size && second == (320, 240), "\(splash): \(first), then \(second)")
            let lines = result.stderr.split(separator: "\n")
            if size == (16, 16) {
                #expect(lines.count == 1 && lines[0].hasPrefix("marquee: splash: \(splash)")
                        && lines[0].hasSuffix("; the background is shown instead"), "\(result.stderr)")
            } else {
                #expect(lines.isEmpty, "\(result.stderr)")
            }
        }
    }
}
