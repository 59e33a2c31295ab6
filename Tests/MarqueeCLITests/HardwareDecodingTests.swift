import Foundation
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// `--hwdec`: VA-API where it works, software with one line where it does
/// not, and a switch to software mid-stream that loses and repeats nothing.
@Suite struct HardwareDecodingTests {
    struct Stats: Decodable {
        let framesPresented: Int
        let audioFramesWritten: Int
        let hwdec: String?
        let hwdecFallbacks: Int
        let framesDownloaded: Int
    }

    /// True where no render node exists, so VA-API set-up must fail.
    static let noRenderNode = (try? RenderNode.all()) == nil

    func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("marquee-hwdec-\(UUID().uuidString)-\(name)").path
    }

    func play(_ arguments: [String], environment: [String] = [], timeout: Double = 120) throws -> (CommandResult, Stats) {
        let stats = scratch("stats.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let result = try Command.run("/usr/bin/env", environment + [MarqueeExecutable.path, "play"] + arguments
                                     + ["--untimed", "--stats", stats], timeout: timeout)
        #expect(result.status == 0, "\(result.stderr)")
        return (result, try JSONDecoder().decode(Stats.self, from: Data(contentsOf: URL(fileURLWithPath: stats))))
    }

    /// Must-show 1: without a device, vaapi and auto play every frame in
    /// software and the stats say "software"; vaapi says why in one line,
    /// auto (where software is an expected outcome) only at --log-level debug.
    @Test(.enabled(if: noRenderNode), arguments: ["vaapi", "auto"])
    func withoutADeviceEveryFramePlaysInSoftwareWithOneLine(mode: String) throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25, size: "320x240"))
        // Two items: a missing device is said once per player, not per item.
        let (result, stats) = try play([clip, clip, "--hwdec", mode, "--video-out", "null"])
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == (mode == "vaapi" ? 1 : 0), "\(result.stderr)")
        if mode == "vaapi" {
            #expect(lines.first?.hasPrefix("marquee: \(clip): decoding video in software: no VA-API render node: /dev/dri") == true,
                    "\(result.stderr)")
        }
        #expect(stats.hwdec == "software")
        #expect(stats.framesPresented == 100)
        #expect(stats.framesDownloaded == 0)
    }

    @Test func aMissingRenderNodeIsNamedInOneLine() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let (result, stats) = try play([clip, "--hwdec", "vaapi", "--hwdec-device", "/dev/dri/renderD250", "--video-out", "null"])
        #expect(result.stderr == "marquee: \(clip): decoding video in software: /dev/dri/renderD250: open: No such file or directory\n")
        #expect(stats.hwdec == "software")
        #expect(stats.framesPresented == 10)
    }

    @Test func softwareOpensNoDeviceAndSaysNothing() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let (result, stats) = try play([clip, "--hwdec", "software", "--hwdec-device", "/dev/dri/renderD250", "--video-out", "null"])
        #expect(result.stderr.isEmpty)
        #expect(stats.hwdec == "software")
        #expect(stats.hwdecFallbacks == 0)
    }

    @Test(.enabled(if: noRenderNode))
    func hwdecSaysClearlyThereIsNoDevice() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 1, fps: 10, size: "160x120"))
        let result = try MarqueeExecutable.run(["hwdec", clip])
        #expect(result.status == 1)
        #expect(result.stdout == "no VA-API device: no VA-API render node: /dev/dri does not exist (no DRM driver loaded)\n\(clip): software\n")
        #expect(result.stderr.isEmpty, "no libva noise")
    }

    @Test func aBadModeIsAUsageError() throws {
        let result = try MarqueeExecutable.run(["play", "x.mp4", "--hwdec", "cuda"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--hwdec must be auto, vaapi or software, not 'cuda'"))
    }

    /// Must-show 2: the "hardware" decoder fails after N frames (the test
    /// hook wraps the software decoder); playback switches to software at
    /// the next frame due: every frame index once, in order, and the audio
    /// is neither repeated nor cut (the same sample count as a clean run).
    /// N = 1 (inside the first GOP), 37 (mid-GOP, past a keyframe), 60 (the
    /// second loop pass), 99 (the very last frame, found while draining).
    @Test(arguments: [1, 37, 60, 99])
    func aDecoderFailingAfterNFramesSwitchesToSoftwareWithoutLosingAFrame(failAfter: Int) throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25, size: "320x240"))
        let y4m = scratch("out.y4m")
        defer { try? FileManager.default.removeItem(atPath: y4m) }
        let loop = ["--loop", "item", "--loops", "2", "--video-out", "file:\(y4m)"]
        let (result, stats) = try play([clip] + loop, environment: ["MARQUEE_TEST_HWDEC_FAIL_AFTER=\(failAfter)"])
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        let failure = failAfter == 99 ? "draining" : "3 times in a row"
        #expect(lines.first?.contains("test-fault decoder failed \(failure) (avcodec_send_packet: injected failure after \(failAfter) frames); decoding in software after the frame at") == true, "\(result.stderr)")
        #expect(stats.hwdec == "software")
        #expect(stats.hwdecFallbacks == 1)
        #expect(try frameIndices(y4m) == Array(0..<50) + Array(0..<50))

        let clean = scratch("clean.y4m")
        defer { try? FileManager.default.removeItem(atPath: clean) }
        let (_, reference) = try play([clip, "--loop", "item", "--loops", "2", "--video-out", "file:\(clean)", "--hwdec", "software"])
        #expect(stats.audioFramesWritten == reference.audioFramesWritten)
        #expect(stats.framesPresented == reference.framesPresented)
    }

    /// The bar-code index of every frame of a y4m file, in order.
    func frameIndices(_ path: String) throws -> [Int?] {
        let demuxer = try Demuxer(source: path)
        let track = try #require(demuxer.media.preferredTrack(.video))
        let decoder = try VideoDecoder(demuxer: demuxer, stream: track.id, threads: 1)
        var indices: [Int?] = []
        while let packet = try demuxer.read() {
            indices += try decoder.decode(packet).map(frameIndex(of:))
        }
        return indices + (try decoder.decode(nil)).map(frameIndex(of:))
    }
}
