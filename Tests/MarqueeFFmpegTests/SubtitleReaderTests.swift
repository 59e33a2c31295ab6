import Foundation
import MarqueeCore
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// Issue 39: subtitle tracks read whole into ASS cues, in the item's time,
/// from every container and sidecar format the captions take.
@Suite struct SubtitleReaderTests {
    static let srt = """
        1
        00:00:00,500 --> 00:00:01,500
        One

        2
        00:00:02,000 --> 00:00:03,250
        Two <i>slanted</i>

        """

    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subtitles-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let result = try Command.run("ffmpeg", ["-v", "error", "-y"] + arguments)
        try #require(result.status == 0, "\(result.stderr)")
    }

    @Test(arguments: [("mp4", "mov_text"), ("mkv", "srt"), ("mkv", "webvtt"), ("mkv", "ass")])
    func aTrackInAFileIsReadWhole(container: String, codec: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.srt.write(toFile: "\(folder)/in.srt", atomically: true, encoding: .utf8)
        let clip = "\(folder)/clip.\(container)"
        try Self.ffmpeg(["-f", "lavfi", "-i", "color=size=64x36:rate=25:duration=4", "-i", "\(folder)/in.srt",
                         "-map", "0:v", "-map", "1:s", "-c:v", "libx264", "-c:s", codec, clip])
        let script = try SubtitleReader.read(source: clip)
        #expect(script.cues.map(\.start) == [500, 2000], "\(script.cues)")
        #expect(script.cues.map(\.end) == [1500, 3250], "\(script.cues)")
        #expect(script.cues.first?.line.hasSuffix(",One") == true, "\(script.cues)")
        #expect(script.header.contains("[Script Info]") && script.header.contains("Style:"))
        #expect(script.hasCue(at: 2500) && !script.hasCue(at: 1700))
    }

    @Test(arguments: ["srt", "vtt", "ass"])
    func aSidecarFileIsRead(format: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.srt.write(toFile: "\(folder)/in.srt", atomically: true, encoding: .utf8)
        let sidecar = "\(folder)/clip.\(format)"
        if format != "srt" { try Self.ffmpeg(["-i", "\(folder)/in.srt", sidecar]) }
        let script = try SubtitleReader.read(source: format == "srt" ? "\(folder)/in.srt" : sidecar, alignedWithFile: false)
        #expect(script.cues.map(\.start) == [500, 2000] && script.cues.map(\.end) == [1500, 3250], "\(script.cues)")
    }

    @Test func cueTimesAreTheItemsWhenTheFileStartsLate() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.srt.write(toFile: "\(folder)/in.srt", atomically: true, encoding: .utf8)
        // Timestamps from 10 s: the item's time 0 is its first picture.
        let clip = "\(folder)/clip.mkv"
        try Self.ffmpeg(["-f", "lavfi", "-i", "color=size=64x36:rate=25:duration=4", "-i", "\(folder)/in.srt",
                         "-map", "0:v", "-map", "1:s", "-c:v", "libx264", "-output_ts_offset", "10", clip])
        let media = try MediaProber.describe(clip)
        #expect(abs(media.startTime.seconds - 10) < 0.1, "\(media.startTime.seconds)")
        let script = try SubtitleReader.read(source: clip)
        #expect(script.cues.map(\.start) == [500, 2000], "\(script.cues)")
    }

    @Test func aFileWithoutCuesOrATrackSaysSo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let broken = "\(folder)/broken.srt"
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: broken))
        #expect(throws: FFmpegError.self) { try SubtitleReader.read(source: broken, alignedWithFile: false) }
        do {
            _ = try SubtitleReader.read(source: broken, alignedWithFile: false)
        } catch {
            #expect("\(error)".contains("broken.srt"), "\(error)")
        }
        let bare = "\(folder)/bare.mkv"
        try Self.ffmpeg(["-f", "lavfi", "-i", "color=size=64x36:rate=25:duration=2", "-c:v", "libx264", bare])
        #expect(throws: FFmpegError.self) { try SubtitleReader.read(source: bare) }
    }
}
