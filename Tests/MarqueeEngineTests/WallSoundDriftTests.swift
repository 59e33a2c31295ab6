import Foundation
@testable import Marquee
import MarqueeTestSupport
import Testing

/// Issue 41, must-show 2, on the engine's own stages stepped on a virtual
/// clock (`StageExecutor`): a player on a wall schedule whose sound card
/// runs 200 ppm fast (`NullAudioOutput`'s drift, inside a WAV output). The
/// sound is resampled onto the wall clock: over ten minutes its offset from
/// the schedule stays within 2 ms at the 99th percentile, with no jump
/// after the start; the WAV has no gap, and its once-a-second beeps are
/// 200 ppm more than a second of samples apart, the resampling at work.
@Suite struct WallSoundDriftTests {
    /// MARQUEE_WALL_SOUND_SECONDS shortens it (or makes it longer) by hand.
    static let seconds = ProcessInfo.processInfo.environment["MARQUEE_WALL_SOUND_SECONDS"].flatMap(Double.init) ?? 600

    @Test func soundOnADeviceRunning200PpmFastStaysOnTheWallClock() async throws {
        let clock = VirtualClock(start: HostTime(nanoseconds: 1_000_000_000))
        let wall = WallClockStepTests.SteppedWallClock(host: clock)
        let video = NullVideoOutput(clock: clock, refreshRate: 60)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wall-drift-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16)
        let audio = try WAVAudioOutput(path: path, format: format, clock: clock, driftPPM: 200)
        // PCM audio with a beep at every second, in a 4 s loop: the seams carry no codec's priming.
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 4, fps: 25, size: "64x48", audioCodec: "pcm_s16le"))
        let player = StageExecutor.player([clip], video: video, audio: audio, clock: clock, loop: .playlist, wallClock: wall)
        let executor = StageExecutor(player: player, clock: clock, latency: (0x5eed, 0.002))
        let length = try await Asset(source: clip).load(.duration).seconds
        let schedule = try #require(WallSchedule(epoch: wall.now().secondsSinceEpoch - 1_000 * length - 1.37, durations: [length]))
        player.followWallClock(schedule)
        player.play()
        executor.run(for: Self.seconds)
        try audio.drain()
        let stats = player.stats.snapshot
        let p99 = try #require(stats.audioWallOffsetP99Ms, "no offset of the sound was read")
        #expect(p99 <= 2, "sound off the wall schedule by \(p99) ms at the 99th percentile")
        #expect(stats.wallCorrections == 1 && stats.audioWallMoves == 0,
                "\(stats.wallCorrections) jumps, \(stats.audioWallMoves) moves of the sound: one jump at the start, then none")
        #expect(stats.underruns == 0)
        // The picture keeps to the schedule as without sound: at the nearest vblank of 60 Hz,
        // give or take the executor's 2 ms of wake-up latency.
        let pictures = try #require(stats.wallOffsetP99Ms)
        #expect(pictures < 11, "frames off the schedule by \(pictures) ms at the 99th percentile")
        let learnt = try #require(stats.audioCorrectionPpm)
        #expect(abs(learnt - 200) < 20, "learnt a drift of \(learnt) ppm")

        // The WAV: from the first sound on, no gap (two zero samples in a row
        // on the left channel: the quietest passage is a tone at 5 % of full scale).
        let left = try wavSamples(path).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let first = try #require(left.firstIndex { $0 != 0 })
        let gaps = zip(left[first...], left[(first + 1)...]).filter { $0 == 0 && $1 == 0 }.count
        #expect(gaps == 0, "\(gaps) pairs of silent samples after the sound began")
        // Beeps start a second of the schedule apart, and the device plays 200 ppm fast:
        // 48009.6 samples written between them if the sound keeps to the wall clock.
        var onsets: [Int] = [], quietSince = first
        for (index, sample) in left.enumerated().dropFirst(first) {
            if abs(Int(sample)) > 8_000 {
                if index - quietSince > 24_000 { onsets.append(index) }
                quietSince = index
            }
        }
        #expect(onsets.count >= Int(Self.seconds) - 2, "\(onsets.count) beeps found")
        let settled = Array(onsets.drop { $0 - first < 48_000 * 30 })
        let spacing = Double(settled.last! - settled.first!) / Double(settled.count - 1)
        #expect(abs(spacing - 48_009.6) < 0.5, "beeps \(spacing) samples apart")
        print("sound on the wall clock, device 200 ppm fast, \(Int(Self.seconds)) s: offset p50 \(stats.audioWallOffsetP50Ms ?? -1) ms, "
              + "p99 \(p99) ms, max \(stats.audioWallOffsetMaxMs ?? -1) ms; learnt \(String(format: "%.1f", learnt)) ppm; "
              + "\(stats.wallCorrections) jump, \(stats.audioWallMoves) moves; beeps \(String(format: "%.2f", spacing)) samples apart; "
              + "\(gaps) gaps; video offset p99 \(stats.wallOffsetP99Ms ?? -1) ms")
    }
}
