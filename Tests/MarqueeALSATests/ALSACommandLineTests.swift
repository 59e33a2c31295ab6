import Foundation
import MarqueeTestSupport
import Testing

/// `marquee play --audio-out alsa:...`, the real executable, on a host
/// without a sound card.
@Suite struct ALSACommandLineTests {
    struct Stats: Decodable {
        struct Device: Decodable {
            struct Stall: Decodable {
                let startSeconds: Double
                let endSeconds: Double
            }
            let device: String
            let connected: Bool
            let losses: Int
            let lastError: String?
            let testStalls: [Stall]
        }
        let framesPresented: Int
        let audioDevice: Device?
    }

    struct Frame: Decodable {
        let pts: Double
        let displayTime: Double
        let avOffsetMs: Double?
    }

    func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("marquee-alsa-\(UUID().uuidString)-\(name)").path
    }

    /// Must-show 3 on the host: one clear line, video plays on with the
    /// stand-in's clock, exit 0; the presentation log has every frame.
    @Test func aMissingCardIsOneLineAndVideoPlaysOn() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 10, size: "160x120"))
        let stats = scratch("stats.json"), log = scratch("log.jsonl")
        defer { try? FileManager.default.removeItem(atPath: stats); try? FileManager.default.removeItem(atPath: log) }
        let result = try MarqueeExecutable.run(["play", clip, "--audio-out", "alsa:hw:9,0", "--video-out", "null", "--hwdec", "software",
                                                "--stats", stats, "--presentation-log", log])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines == ["marquee: audio device hw:9,0: snd_pcm_open: No such file or directory (-2); playing without sound, retrying every 3 s"])
        let report = try JSONDecoder().decode(Stats.self, from: Data(contentsOf: URL(fileURLWithPath: stats)))
        // Real time on a shared host: a frame more than a frame interval late may be dropped.
        #expect(report.framesPresented >= 18)
        let device = try #require(report.audioDevice)
        #expect(device.device == "hw:9,0")
        #expect(!device.connected)
        #expect(device.losses == 1)
        let frames = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Frame.self, from: Data($0.utf8)) }
        #expect(frames.count == report.framesPresented)
        #expect(frames.map(\.pts) == frames.map(\.pts).sorted() && frames.last?.pts == 1.9, "\(frames.map(\.pts))")
        #expect(frames.allSatisfy { $0.avOffsetMs != nil }, "the stand-in's clock is the audio clock")
    }

    /// The underrun test hook is read from the environment and recorded.
    @Test func theStallHookIsTakenFromTheEnvironment() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 10, size: "160x120"))
        let stats = scratch("stats.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let result = try Command.run("/usr/bin/env", ["MARQUEE_TEST_STALL_AUDIO_MS=200", "MARQUEE_TEST_STALL_AUDIO_AFTER_MS=500",
                                                      MarqueeExecutable.path, "play", clip, "--audio-out", "alsa:hw:9,0",
                                                      "--video-out", "null", "--stats", stats])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(Stats.self, from: Data(contentsOf: URL(fileURLWithPath: stats)))
        let stall = try #require(report.audioDevice?.testStalls.first)
        #expect(report.audioDevice?.testStalls.count == 1)
        #expect(stall.endSeconds - stall.startSeconds >= 0.2)
    }

    @Test func badAudioOptionsAreUsageErrors() throws {
        #expect(try MarqueeExecutable.run(["play", "x.mp4", "--audio-out", "pulse"]).status == 2)
        #expect(try MarqueeExecutable.run(["play", "x.mp4", "--audio-out", "alsa:hw:0,0", "--untimed"]).status == 2)
        #expect(try MarqueeExecutable.run(["play", "x.mp4", "--audio-out", "alsa", "--audio-period-ms", "80"]).status == 2)
        #expect(try MarqueeExecutable.run(["play", "x.mp4", "--audio-buffer-ms", "2"]).status == 2)
    }
}
