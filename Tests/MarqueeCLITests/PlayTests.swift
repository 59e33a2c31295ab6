import Foundation
import MarqueeTestSupport
import Testing

/// `marquee play`, the real executable.
@Suite struct PlayTests {
    struct Stats: Decodable {
        struct Resources: Decodable {
            struct Usage: Decodable {
                let residentKilobytes: Int
                let openFileDescriptors: Int
            }
            let ends: Int
            let usage: Usage
        }
        let framesPresented: Int
        let endNotifications: Int
        let resources: [Resources]
    }

    static func stats(_ path: String) throws -> Stats {
        try JSONDecoder().decode(Stats.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Must-show 7: 500 untimed loop passes neither grow memory nor leak descriptors.
    @Test func fiveHundredLoopPassesKeepMemoryAndDescriptorsFlat() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let statsPath = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).json").path
        let result = try MarqueeExecutable.run(["play", clip, "--untimed", "--loop", "item", "--loops", "500", "--stats", statsPath],
                                               timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let stats = try Self.stats(statsPath)
        #expect(stats.endNotifications == 500)
        #expect(stats.framesPresented == 5000)
        // Warmed up after 50 passes; from there to the end, less than 4 MB more. Alone it grows
        // about 0.45 MB; on a loaded machine glibc may give a contending thread a malloc arena
        // of its own after warm-up (2.7 MB seen). A frame (29 kB here) or a packet leaked a pass
        // would be 9-13 MB by pass 500.
        let warm = try #require(stats.resources.first { $0.ends == 50 })
        let last = try #require(stats.resources.last)
        #expect(last.ends == 500)
        let growth = last.usage.residentKilobytes - warm.usage.residentKilobytes
        #expect(growth < 4096, "resident memory grew \(growth) kB from pass 50 to 500")
        #expect(last.usage.openFileDescriptors <= warm.usage.openFileDescriptors)
    }

    @Test func aBadItemInAPlaylistIsOneLineAndTheRestPlays() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let statsPath = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).json").path
        // Software: a machine without VA-API would add its one line about that.
        let result = try MarqueeExecutable.run(["play", clip, "/missing/clip.mp4", clip, "--untimed", "--hwdec", "software", "--stats", statsPath])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("/missing/clip.mp4: avformat_open_input: No such file or directory") == true)
        #expect(try Self.stats(statsPath).framesPresented == 20)
    }

    /// A looping playlist meets its broken item on every pass: one line in all.
    @Test func aBrokenItemInALoopingPlaylistIsReportedOnce() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let statsPath = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).json").path
        let result = try MarqueeExecutable.run(["play", clip, "/missing/clip.mp4", "--loop", "playlist", "--loops", "3", "--untimed",
                                                "--hwdec", "software", "--stats", statsPath])
        #expect(result.status == 0)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try Self.stats(statsPath).framesPresented == 30, "not 3 passes")
    }

    @Test func aStartPastTheEndEndsPlayback() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let result = try MarqueeExecutable.run(["play", clip, "--start", "100", "--video-out", "null", "--audio-out", "null",
                                                "--hwdec", "software"], timeout: 20)
        #expect(!result.timedOut, "marquee play --start past the end did not end")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func badOptionsAreUsageErrors() throws {
        #expect(try MarqueeExecutable.run(["play", "x.mp4", "--loop", "sometimes"]).status == 2)
        #expect(try MarqueeExecutable.run(["play", "x.mp4", "--rate", "0"]).status == 2)
        #expect(try MarqueeExecutable.run(["play", "x.mp4", "--video-out", "hdmi"]).status == 2)
        #expect(try MarqueeExecutable.run(["play"]).status == 2)
    }
}
