import Foundation
import MarqueeTestSupport
import Synchronization
import Testing

/// Issue 17: live HLS, written continuously by the ffmpeg CLI and served
/// over HTTPS (a self-signed certificate) by a real nginx on loopback.
/// Where the player starts is read from nginx's access log (the first
/// segment it asks for) beside the newest segment the writer's playlist
/// listed at that moment.
@Suite(.serialized) struct LiveHLSTests {
    /// A sliding window of 6 one-second segments: `live_latency` 2 starts
    /// two segments from the end and 6 starts six; a 5 s stop of the server
    /// is one lost and one back line, and the stream comes back near the
    /// live edge again, not where it was lost.
    @Test func aSlidingWindowStartsAndRestartsNearTheLiveEdge() throws {
        let writer = try LiveHLSWriter(event: false)
        defer { writer.stop() }
        let nginx = try Nginx(root: writer.folder, tls: true)
        try nginx.start()
        try writer.waitForSegments(6)

        let near = try run(nginx, writer, latency: 2, outage: 5)
        print("latency 2: started \(near.behind) segments behind; after the outage \(near.behindAfterOutage ?? -1)\n\(near.stderr)")
        #expect((2...3).contains(near.behind), "live_latency 2 started \(near.behind) one-second segments behind the newest")
        #expect(near.stderr.split(separator: "\n").filter { $0.contains(": lost (") }.count == 1, "\(near.stderr)")
        #expect(near.stderr.split(separator: "\n").filter { $0.contains(": back after") }.count == 1, "\(near.stderr)")
        let after = try #require(near.behindAfterOutage, "no segment asked for after the server came back")
        #expect((2...3).contains(after), "came back \(after) segments behind the newest")
        #expect(near.framesAfterOutage > 25, "only \(near.framesAfterOutage) frames after the server came back")

        let far = try run(nginx, writer, latency: 6, outage: nil)
        print("latency 6: started \(far.behind) segments behind")
        #expect((6...7).contains(far.behind), "live_latency 6 started \(far.behind) one-second segments behind the newest")
    }

    /// An EVENT playlist keeps every segment from the first: the player
    /// still starts near its end.
    @Test func anEventPlaylistStartsNearItsEnd() throws {
        let writer = try LiveHLSWriter(event: true)
        defer { writer.stop() }
        let nginx = try Nginx(root: writer.folder, tls: true)
        try nginx.start()
        try writer.waitForSegments(8)
        let run = try run(nginx, writer, latency: 2, outage: nil)
        print("EVENT: started \(run.behind) segments behind\n\(run.stderr)")
        #expect((2...3).contains(run.behind), "started \(run.behind) one-second segments behind the newest of an EVENT playlist")
        #expect(run.frames > 50, "only \(run.frames) frames presented")
    }

    private struct Run {
        var behind: Int
        var behindAfterOutage: Int?
        var frames: Int
        var framesAfterOutage: Int
        var stderr: String
    }

    /// Plays the live stream for 4 s (and through a stop of `outage` seconds
    /// and 8 s more); counts how far behind the newest segment each start was.
    private func run(_ nginx: Nginx, _ writer: LiveHLSWriter, latency: Double, outage: Double?) throws -> Run {
        let folder = nginx.directory
        let log = "\(folder)/presented-\(Int(latency)).jsonl"
        try "[playback]\nlive_latency = \(latency)\nretry_max = 2\n".write(toFile: "\(folder)/marquee.toml", atomically: true, encoding: .utf8)
        let started = Date().timeIntervalSince1970
        let player = try BackgroundMarquee(["play", nginx.url("live.m3u8"), "--config", "\(folder)/marquee.toml",
                                            "--video-out", "null", "--audio-out", "null", "--presentation-log", log])
        Thread.sleep(forTimeInterval: 4)
        var restarted: Double?
        if let outage {
            nginx.stop()
            Thread.sleep(forTimeInterval: outage)
            restarted = Date().timeIntervalSince1970
            try nginx.start()
            Thread.sleep(forTimeInterval: 8)
        }
        let result = player.stop()
        let requests = nginx.requests().filter { [200, 206].contains($0.status) && $0.path.hasSuffix(".ts") }
        func behind(after time: Double) throws -> Int {
            let first = try #require(requests.first { $0.time >= time }, "no segment asked for after \(time)")
            let newest = try #require(writer.newest(at: first.time), "the writer had no segment at \(first.time)")
            return newest - LiveHLSWriter.number(first.path) + 1
        }
        let frames = try PresentedFrame.read(log).map(\.display)
        // Display times are seconds of the player's monotonic clock: frames after the restart are the last ones.
        let resumedFrames = restarted.map { _ in zip(frames, frames.dropFirst()).reversed().prefix { $1 - $0 < 1 }.count } ?? 0
        return Run(behind: try behind(after: started), behindAfterOutage: try restarted.map { try behind(after: $0) },
                   frames: frames.count, framesAfterOutage: resumedFrames, stderr: result.stderr)
    }
}

/// The ffmpeg CLI writing a live HLS stream in real time (one-second
/// segments), and a record of the newest segment its playlist listed when.
final class LiveHLSWriter: @unchecked Sendable {
    let folder: String
    private let process = Process()
    private let record = Mutex<[(time: Double, newest: Int)]>([])
    private let watching = Atomic<Bool>(true)
    private var watcher: Thread?

    /// - Parameter event: an EVENT playlist (every segment kept) instead of a sliding window of six.
    init(event: Bool) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let window = event ? ["-hls_playlist_type", "event"] : ["-hls_list_size", "6", "-hls_flags", "delete_segments"]
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=160x96:rate=25",
                             "-f", "lavfi", "-i", "sine=f=440", "-c:v", "libx264", "-preset", "veryfast", "-g", "25",
                             "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "hls", "-hls_time", "1"] + window
            + ["-hls_segment_filename", "\(folder)/live%05d.ts", "\(folder)/live.m3u8"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let playlist = "\(folder)/live.m3u8"
        // Holds the writer until `stop`: the thread may be mid-loop when the test lets go of it.
        let thread = Thread { [self] in
            while watching.load(ordering: .relaxed) {
                if let text = try? String(contentsOfFile: playlist, encoding: .utf8),
                   let last = text.split(separator: "\n").last(where: { $0.hasSuffix(".ts") }) {
                    let newest = Self.number(String(last))
                    record.withLock { entries in
                        if entries.last?.newest != newest { entries.append((Date().timeIntervalSince1970, newest)) }
                    }
                }
                usleep(20_000)
            }
        }
        thread.start()
        watcher = thread
    }

    /// The number of segment `liveNNNNN.ts`.
    static func number(_ path: String) -> Int {
        Int(path.split(separator: "/").last?.dropFirst(4).dropLast(3) ?? "") ?? -1
    }

    /// The newest segment the playlist listed at `time`.
    func newest(at time: Double) -> Int? {
        record.withLock { entries in entries.last { $0.time <= time }?.newest }
    }

    func waitForSegments(_ count: Int) throws {
        for _ in 0..<400 {
            if let newest = record.withLock({ $0.last?.newest }), newest >= count - 1 { return }
            usleep(50_000)
        }
        throw CommandError.notFound("\(count) live segments from ffmpeg in \(folder)")
    }

    /// SIGKILL: a child of the test runner starts with SIGTERM and SIGINT blocked.
    func stop() {
        watching.store(false, ordering: .relaxed)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
