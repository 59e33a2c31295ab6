@testable import Marquee
import MarqueeTestSupport
import Testing

/// Issue 16: streams that do not end together. A pass lasts as long as its
/// longest stream; the shorter is padded in time (silence for audio, the
/// last frame held for video), so the audio clock runs at its true rate
/// across late starts, holes and early ends, and loops stay seamless.
@Suite struct UnevenStreamsTests {
    static let fps = 30
    static let rate = 48000

    /// A one-second 30 fps clip whose audio has one of the awkward shapes real files have.
    struct Shape: Sendable, CustomStringConvertible {
        let description: String
        let audioSeconds: Double
        let filter: String?
        /// The pass: the longest stream.
        let passSeconds: Double

        var recipe: Fixtures.Recipe {
            Fixtures.indexed(seconds: 1, fps: UnevenStreamsTests.fps, audioCodec: "pcm_s16le", audioSeconds: audioSeconds,
                             audioFilter: filter)
        }
    }

    static let shapes = [
        Shape(description: "audio 0.2 s short", audioSeconds: 0.8, filter: nil, passSeconds: 1),
        Shape(description: "audio 0.43 s short", audioSeconds: 0.57, filter: nil, passSeconds: 1),
        Shape(description: "audio 0.3 s late", audioSeconds: 0.7, filter: "asetpts=PTS+0.3/TB", passSeconds: 1),
        Shape(description: "audio with a 200 ms hole", audioSeconds: 0.8, filter: "asetpts=PTS+gte(T\\,0.5)*0.2/TB", passSeconds: 1),
        Shape(description: "audio 0.5 s long", audioSeconds: 1.5, filter: nil, passSeconds: 1.5),
    ]

    static let passes = 20

    /// Untimed, 20 passes: every frame once, in order, and the recording is
    /// exactly passes x pass length (so silence filled every hole).
    @Test(arguments: shapes)
    func untimedLoopsShowEveryFrameOnceAndWriteThePassLength(_ shape: Shape) async throws {
        let run = try Run([try Fixtures.path(shape.recipe)], untimed: true, wav: true, loop: .item, passes: Self.passes)
        try await run.playToEnd()
        let indexes = run.video.frames.map(\.index)
        #expect(indexes == (0..<Self.passes * Self.fps).map { Optional.some($0 % Self.fps) }, "\(shape): a frame was dropped or repeated")
        let samples = try wavSamples(try #require(run.audioPath)).count / 2
        let expected = Double(Self.passes) * shape.passSeconds * Double(Self.rate)
        #expect(abs(Double(samples) - expected) <= 1024, "\(shape): \(samples) sample frames, expected \(Int(expected))")
    }

    /// In real-time mode on the stepped engine (a virtual clock, a 60 Hz
    /// display, a simulated sound card): nothing dropped, at a seam or
    /// anywhere, A-V within 10 ms at the 99th percentile, and the seam
    /// records say so. The hold of the last frame while longer audio plays
    /// out is by design and shows as the seam's hold, not as a repeat.
    @Test(arguments: shapes)
    func realTimeLoopsDropNothingAndStayInSync(_ shape: Shape) throws {
        let rig = SteppedEngineTests.Rig([try Fixtures.path(shape.recipe)], loop: .item, passes: Self.passes)
        rig.player.play()
        #expect(rig.executor.run(for: Double(Self.passes) * shape.passSeconds + 5), "\(shape): playback did not end")
        #expect(rig.indexes == (0..<Self.passes * Self.fps).map { Optional.some($0 % Self.fps) }, "\(shape)")
        #expect(rig.stats.framesDropped == 0, "\(shape): \(rig.stats.framesDropped) frames dropped")
        #expect(rig.stats.seams.count == Self.passes - 1)
        #expect(rig.stats.seams.allSatisfy { $0.framesDropped == 0 }, "\(shape): drops at seams")
        let offsets = rig.offsets.map(abs).sorted()
        let p99 = offsets[Int(Double(offsets.count - 1) * 0.99)]
        #expect(p99 <= 10, "\(shape): A-V p99 \(p99) ms")
        let held = (shape.passSeconds - 1) * 1000
        #expect(rig.stats.seams.allSatisfy { abs($0.gapMs - held) <= 1000 / 60.0 + 2 }, "\(shape): seam holds \(rig.stats.seams.map(\.gapMs))")
        let expected = Double(Self.passes) * shape.passSeconds * Double(Self.rate)
        #expect(abs(Double(rig.stats.audioFramesWritten) - expected) <= 1024, "\(shape): \(rig.stats.audioFramesWritten) written")
    }

    /// Played once, audio that ends early does not freeze the picture: every
    /// frame shows, none stays up longer than its interval and a refresh.
    @Test func audioThatEndsEarlyDoesNotFreezeThePicture() throws {
        let rig = SteppedEngineTests.Rig([try Fixtures.path(Self.shapes[1].recipe)])
        rig.player.play()
        #expect(rig.executor.run(for: 5))
        #expect(rig.indexes == (0..<Self.fps).map(Optional.some))
        let displays = rig.video.frames.map(\.display)
        let longest = zip(displays.dropFirst(), displays).map { ($0 - $1).secondsDouble }.max() ?? 0
        #expect(longest <= 1 / Double(Self.fps) + 1 / 60.0 + 0.002, "a frame stayed up \(longest * 1000) ms")
        #expect(abs(rig.stats.audioFramesWritten - Self.rate) <= 1024, "the early end was not filled to the pass's length: \(rig.stats.audioFramesWritten)")
    }

    /// A seam where frames were dropped says so: the presenter is held (as a
    /// busy machine would) just before the seam, frames due meanwhile are
    /// dropped, and the seam record counts them and the hold.
    @Test func aSeamWithDropsReportsThem() throws {
        let rig = SteppedEngineTests.Rig([try SteppedEngineTests.clip()], loop: .item, passes: 2)
        rig.player.play()
        rig.executor.run(for: 1.7)
        rig.executor.held = ["present"]
        rig.executor.run(for: 0.2)
        rig.executor.held = []
        #expect(rig.executor.run(for: 10))
        let seam = try #require(rig.stats.seams.first)
        #expect(rig.stats.framesDropped > 0)
        #expect(seam.framesDropped == rig.stats.framesDropped, "the seam record says \(seam.framesDropped) drops of \(rig.stats.framesDropped)")
        #expect(seam.longestHoldMs >= 150, "the seam record's longest hold is \(seam.longestHoldMs) ms")
    }

    /// Files made by others whose streams do not end together: video
    /// starting a second after the audio (an edit list's positive shift),
    /// video starting late and ending early inside longer AAC, audio ending
    /// 0.3 s before the video in MPEG-TS. Looped three times on the stepped
    /// engine in real time: every frame of a pass in each, nothing dropped,
    /// in sync, and the sound as long as three passes of the longest stream.
    @Test(arguments: ["androidx/edit_list_positive_shift.mp4", "mediabunny/rotate-buck-bunny.mp4",
                      "mediabunny/missing-keyframe-labels.ts"])
    func realFilesLoopWithoutDropsAndWriteThePassLength(_ name: String) throws {
        let path = "\(SharedMedia.directory)/\(name)"
        let once = SteppedEngineTests.Rig([path])
        once.player.play()
        #expect(once.executor.run(for: 30))
        let frames = once.video.frames.count
        let passes = 3
        let rig = SteppedEngineTests.Rig([path], loop: .item, passes: passes)
        rig.player.play()
        #expect(rig.executor.run(for: 60))
        let passSeconds = try Self.longestStream(path)
        let offsets = rig.offsets.map(abs).sorted()
        let p99 = offsets[Int(Double(offsets.count - 1) * 0.99)]
        print(String(format: "%@ x %d: %d frames (%d a pass), %d dropped, A-V p99 %.1f ms, %d samples written (%.0f expected), seam holds %@",
                     name, passes, rig.video.frames.count, frames, rig.stats.framesDropped, p99, rig.stats.audioFramesWritten,
                     passSeconds * Double(Self.rate) * Double(passes), rig.stats.seams.map { Int($0.longestHoldMs) }.description))
        #expect(rig.video.frames.count == passes * frames, "\(name)")
        #expect(rig.stats.framesDropped == 0, "\(name)")
        #expect(rig.stats.seams.count == passes - 1 && rig.stats.seams.allSatisfy { $0.framesDropped == 0 }, "\(name)")
        // A frame lands on the vblank nearest its time (within half a 60 Hz
        // refresh), after a wake-up up to 2 ms late.
        #expect(p99 <= 1000 / 60 / 2 + 2, "\(name): A-V p99 \(p99) ms")
        let expected = passSeconds * Double(Self.rate) * Double(passes)
        #expect(abs(Double(rig.stats.audioFramesWritten) - expected) <= 2048, "\(name): \(rig.stats.audioFramesWritten) written")
    }

    /// Seconds from the earliest stream start to the latest stream end, as ffprobe reads them.
    static func longestStream(_ path: String) throws -> Double {
        let result = try Command.run("ffprobe", ["-v", "error", "-show_entries", "stream=start_time,duration", "-of", "csv=p=0", path])
        let spans = result.stdout.split(separator: "\n").compactMap { line -> (Double, Double)? in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            return fields.count == 2 ? (fields[0], fields[0] + fields[1]) : nil
        }
        return (spans.map(\.1).max() ?? 0) - (spans.map(\.0).min() ?? 0)
    }
}
