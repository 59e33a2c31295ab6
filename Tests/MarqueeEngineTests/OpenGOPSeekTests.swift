@testable import Marquee
import MarqueeTestSupport
import Testing

/// Issue 16, must-show 4: exact seeks in open-GOP streams. Each keyframe has
/// B-frames before it in display order that reference the GOP before (open
/// GOP H.264, HEVC CRA pictures); seeking to the keyframe at or before a
/// target in decode order loses them. An exact seek to every frame's time
/// must show that frame first. MPEG-TS, which has no index, adds its own way
/// of landing after the target.
@Suite struct OpenGOPSeekTests {
    static let fps = 30
    static let seconds = 3

    struct Kind: Sendable, CustomStringConvertible {
        let description: String
        let recipe: Fixtures.Recipe
        /// The index of the first frame shown when played from the start.
        let firstIndex: Int
    }

    static func openGOP(_ codec: String, _ options: [String], container: String = "mp4") -> Fixtures.Recipe {
        Fixtures.indexed(seconds: seconds, fps: fps, size: "160x96", codec: codec, container: container, encoderOptions: options)
    }

    static let x264Options = ["-preset", "veryfast", "-crf", "16", "-sc_threshold", "0", "-bf", "3",
                              "-x264-params", "open-gop=1:b-adapt=0"]
    static let h264 = openGOP("libx264", x264Options)
    static let hevc = openGOP("libx265", ["-preset", "ultrafast", "-crf", "16",
                                          "-x265-params", "log-level=error:scenecut=0:open-gop=1:bframes=3"])

    /// The open-GOP H.264 clip cut at 0.4 s without re-encoding: its edit
    /// list starts the item on a B-frame, after frames that are decoded but not shown.
    static func cut(_ source: Fixtures.Recipe) throws -> Fixtures.Recipe {
        Fixtures.Recipe(name: "\(source.name)-cut-0.4s", fileExtension: "mp4",
                        arguments: ["-ss", "0.4", "-i", try Fixtures.path(source), "-c", "copy"])
    }

    static let kinds: [Kind] = [
        Kind(description: "H.264 open GOP", recipe: h264, firstIndex: 0),
        Kind(description: "HEVC with CRA pictures", recipe: hevc, firstIndex: 0),
        Kind(description: "H.264 open GOP with an edit list", recipe: (try? cut(h264)) ?? h264, firstIndex: 12),
        // No index: libavformat searches by timestamp and lands on any packet.
        Kind(description: "H.264 open GOP in MPEG-TS", recipe: openGOP("libx264", x264Options, container: "ts"), firstIndex: 0),
    ]

    /// The fixtures are open GOP: a keyframe is followed in decode order by a
    /// frame displayed before it. (Without this the test below proves nothing.)
    @Test(arguments: kinds)
    func theFixtureHasLeadingPictures(_ kind: Kind) throws {
        let result = try Command.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts,flags",
                                                 "-of", "csv=p=0", try Fixtures.path(kind.recipe)])
        let packets = result.stdout.split(separator: "\n").map { $0.split(separator: ",") }
            .compactMap { fields in Int(fields[0]).map { ($0, fields[1].contains("K")) } }
        let leading = zip(packets, packets.dropFirst()).filter { $0.1 && $1.0 < $0.0 }.count
        #expect(leading >= Self.seconds - 1, "\(kind): \(leading) keyframes with leading pictures")
    }

    @Test(arguments: kinds)
    func anExactSeekToEveryFrameShowsThatFrameFirst(_ kind: Kind) throws {
        let path = try Fixtures.path(kind.recipe)
        let videoStart = try Self.videoStart(path)
        let rig = SteppedEngineTests.Rig([path])
        rig.player.play()
        rig.executor.run(for: 0.2)
        rig.player.pause()
        #expect(rig.indexes.first == kind.firstIndex, "\(kind): played from the start, the first frame is \(String(describing: rig.indexes.first))")
        var wrong: [String] = []
        for frame in 0..<(Self.seconds * Self.fps - kind.firstIndex) {
            let before = rig.video.frames.count
            // A microsecond into the frame: its start, clear of rounding.
            let time = videoStart + Double(frame) / Double(Self.fps) + 1e-6
            _ = rig.player.startSeek(to: MediaTime(seconds: time, preferredTimescale: 1_000_000_000), exact: true)
            rig.executor.run(for: 1)
            let shown = rig.video.frames.dropFirst(before).first?.index
            if shown != kind.firstIndex + frame { wrong.append("\(frame) -> \(shown.map(String.init) ?? "none")") }
        }
        #expect(wrong.isEmpty, "\(kind): exact seeks to these frames showed others first: \(wrong)")
    }

    /// Item time of the first video frame: where the video starts after the
    /// item's start (MPEG-TS AAC often starts earlier, with its priming).
    static func videoStart(_ path: String) throws -> Double {
        let format = try Command.run("ffprobe", ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", path])
        let stream = try Command.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=start_pts,time_base",
                                                 "-of", "default=noprint_wrappers=1", path])
        // "time_base=1/90000" and "start_pts=132000" (twice for MPEG-TS: its program lists the stream too).
        let values = Dictionary(stream.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: "=").count == 2 ? (String(line.split(separator: "=")[0]), String(line.split(separator: "=")[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
        let base = try #require(values["time_base"]).split(separator: "/").compactMap { Double($0) }
        let start = try #require(values["start_pts"].flatMap(Double.init)) * base[0] / base[1]
        return start - (try #require(Double(format.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
    }
}
