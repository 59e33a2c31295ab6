@testable import Marquee
import MarqueeTestSupport
import Testing

/// Issue 42: the video queue holds only what real time needs, and a picture
/// is not decoded while it has no room (its packets wait compressed). Files
/// that store their sound a second or more away from their pictures still
/// feed the sound card: the source reads on for the sound, or lets it
/// overflow while the pictures wait behind it. The engine's stages on the
/// virtual clock (`StageExecutor`, 0-2 ms of seeded wake-up latency), a
/// 60 Hz display and `DriftingSoundCard` at the host's pace, which stops
/// the run if it ever runs dry.
@Suite struct InterleaveTests {
    struct File: Sendable, CustomStringConvertible {
        let description: String
        let path: @Sendable () throws -> String
    }

    /// A 6 s clip (25 fps, AAC) remuxed into 2 s fragments, each track's
    /// samples in one run: the fragment's pictures all come before its sound
    /// (or after it, with the sound mapped first).
    static func fragmented(soundFirst: Bool) throws -> String {
        let source = try Fixtures.path(Fixtures.indexed(seconds: 6, fps: 25, size: "160x96"))
        let maps = soundFirst ? ["-map", "0:a", "-map", "0:v"] : ["-map", "0:v", "-map", "0:a"]
        return try Fixtures.path(Fixtures.Recipe(
            name: "indexed-6s-fragments-2s-\(soundFirst ? "sound" : "pictures")-first", fileExtension: "mp4",
            arguments: ["-i", source] + maps + ["-c", "copy", "-movflags", "+empty_moov", "-frag_duration", "2000000"]))
    }

    static let files = [
        File(description: "pictures stored 1.2 s before their sound (2 s fragments)") { try fragmented(soundFirst: false) },
        File(description: "sound stored 1 s before its pictures (2 s fragments)") { try fragmented(soundFirst: true) },
        File(description: "rotate-buck-bunny.mp4 (1080p, pictures up to 1.2 s ahead)") {
            "\(SharedMedia.directory)/mediabunny/rotate-buck-bunny.mp4"
        },
    ]

    @Test(arguments: files)
    func soundStoredAwayFromItsPicturesPlaysWithoutADropOrAGap(_ file: File) throws {
        let path = try file.path()
        let clock = VirtualClock(start: HostTime(nanoseconds: 1_000_000_000))
        let card = DriftingSoundCard(drift: 0, clock: clock)
        let display = RecordingVideoOutput(clock: clock, refreshRate: 60)
        let player = StageExecutor.player([path], video: display, audio: card, clock: clock)
        let executor = StageExecutor(player: player, clock: clock, latency: (0x1eaf, 0.002))
        player.play()
        #expect(executor.run(for: 30), "\(file): playback did not end")

        let frames = try FFprobe.decodedFrameCount(path, stream: "v")
        let stats = player.stats.snapshot
        #expect(stats.framesPresented == frames, "\(file): \(stats.framesPresented) of \(frames) frames shown")
        #expect(stats.framesDropped == 0, "\(file)")
        #expect(stats.underruns == 0, "\(file)")
        // Each frame within one of the sound as the card plays it (the first is shown before the sound starts).
        let worst = player.stats.presentationLog.dropFirst().compactMap(\.avOffsetMs).map(abs).max() ?? .infinity
        #expect(worst < 40, "\(file): A-V offset reached \(worst) ms")
    }
}
