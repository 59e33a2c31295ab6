import Foundation
import MarqueeTestSupport
import Testing

/// Damaged copies of a real VP9 file (`mediabunny/frames.webm`, 100 frames),
/// as a bad download or a failing SD card leaves them: each pass shows what
/// decodes and ends in the decoder's error, and still counts as a pass.
@Suite struct DamagedFileTests {
    /// Seeds whose copies show some of their frames and then fail, chosen by
    /// playing the first 80: a single frame, 5 (the one the issue found),
    /// 36 and 46 before the error.
    static let seeds: [UInt64] = [10, 25, 7, 51]

    /// `frames.webm` with 1 to 64 bytes changed, the same for the same seed.
    static func damagedCopy(seed: UInt64) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(SharedMedia.directory)/mediabunny/frames.webm")))
        var random = SeededGenerator(seed: seed)
        for _ in 0..<(1 + random.next() % 64) {
            let index = Int(random.next() % UInt64(bytes.count))
            bytes[index] ^= UInt8(1 + random.next() % 255)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(seed)-\(UUID().uuidString).webm").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    struct Run {
        let result: CommandResult
        let stats: PlayTests.Stats
        let decodeErrors: Int

        var errorLines: [Substring] { result.stderr.split(separator: "\n") }
    }

    static func play(_ path: String, _ options: [String], timeout: Double = 60) throws -> Run {
        let statsPath = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).json").path
        let result = try MarqueeExecutable.run(["play", path, "--untimed", "--video-out", "null", "--audio-out", "null",
                                                "--hwdec", "software", "--stats", statsPath] + options, timeout: timeout)
        let data = try Data(contentsOf: URL(fileURLWithPath: statsPath))
        let errors = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["decodeErrors"] as? Int
        return Run(result: result, stats: try PlayTests.stats(statsPath), decodeErrors: try #require(errors))
    }

    @Test(arguments: seeds, [["--loops", "3"], ["--loop", "item", "--loops", "3"]])
    func aPassEndingInADecodeErrorCountsTowardTheLimit(seed: UInt64, loop: [String]) throws {
        let path = try Self.damagedCopy(seed: seed)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let once = try Self.play(path, [])
        #expect(once.result.status == 0, "\(once.result.stderr)")
        #expect(once.stats.framesPresented > 0 && once.stats.framesPresented < 100, "seed \(seed) no longer damages the file mid-way")
        #expect(once.decodeErrors == 1)
        let error = try #require(once.errorLines.first)
        #expect(error.contains("avcodec_send_packet"), "\(error)")

        let looped = try Self.play(path, loop, timeout: 30)
        #expect(!looped.result.timedOut, "seed \(seed): \(loop) never ended")
        #expect(looped.result.status == 0, "\(looped.result.stderr)")
        #expect(looped.stats.framesPresented == 3 * once.stats.framesPresented, "not three passes' frames")
        #expect(looped.stats.endNotifications == 3)
        #expect(looped.decodeErrors == 3, "the error of each pass is counted")
        #expect(looped.errorLines == [error], "the error is written once")
    }

    /// Looping forever through a damaged item: many passes, one line.
    @Test func loopingADamagedItemForeverWritesItsErrorOnce() throws {
        let path = try Self.damagedCopy(seed: Self.seeds[1])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Self.play(path, ["--loop", "item"], timeout: 20)
        #expect(run.result.timedOut, "an endless loop ended: \(run.result.stderr)")
        #expect(run.decodeErrors >= 20, "only \(run.decodeErrors) passes in 20 s")
        #expect(run.stats.endNotifications >= run.decodeErrors - 1)
        #expect(run.errorLines.count == 1, "\(run.result.stderr)")
    }

    /// A copy whose passes show nothing at all is broken after two of them:
    /// skipped with one line, and the rest of the playlist plays its passes.
    @Test func anItemShowingNothingTwiceIsSkipped() throws {
        var nothing: String?
        for seed: UInt64 in 1...80 where nothing == nil {
            let path = try Self.damagedCopy(seed: seed)
            if try Self.play(path, []).stats.framesPresented == 0 { nothing = path } else { try FileManager.default.removeItem(atPath: path) }
        }
        let broken = try #require(nothing, "no seed up to 80 leaves nothing decodable")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let alone = try Self.play(broken, ["--loop", "item"], timeout: 30)
        #expect(!alone.result.timedOut, "a loop of an item that shows nothing never ended")
        #expect(alone.stats.framesPresented == 0)
        let statsPath = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).json").path
        let result = try MarqueeExecutable.run(["play", clip, broken, "--loop", "playlist", "--loops", "4", "--untimed",
                                                "--video-out", "null", "--audio-out", "null", "--hwdec", "software",
                                                "--stats", statsPath], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try PlayTests.stats(statsPath).framesPresented == 40)
    }
}
