import Foundation
import MarqueeTestSupport
import Testing

/// Issue 17: an HLS stream of three variants made by ffmpeg's HLS muxer
/// (320x180, 640x360 and 960x540), served by nginx on loopback. The variant
/// that plays is seen twice: in the picture `--stats` reports, and in the
/// variants nginx was asked for the last segment of (libavformat's probe
/// reads the first 5 s of every variant to learn its streams; after it,
/// only the chosen one's segments are fetched).
@Suite(.serialized) struct HLSVariantTests {
    static func variants() throws -> String {
        let folder = Fixtures.directory.appendingPathComponent("hls-variants-8s").path
        if FileManager.default.fileExists(atPath: "\(folder)/master.m3u8") { return folder }
        let partial = folder + "-partial"
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
        var arguments = ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=960x540:rate=25:duration=8",
                         "-f", "lavfi", "-i", "sine=f=440:d=8"]
        for _ in 0..<3 { arguments += ["-map", "0:v", "-map", "1:a"] }
        arguments += ["-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k",
                      "-s:v:0", "320x180", "-b:v:0", "300k", "-s:v:1", "640x360", "-b:v:1", "800k", "-s:v:2", "960x540", "-b:v:2", "1500k",
                      "-var_stream_map", "v:0,a:0 v:1,a:1 v:2,a:2", "-master_pl_name", "master.m3u8",
                      "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                      "-hls_segment_filename", "\(partial)/v%v/seg%03d.ts", "\(partial)/v%v/index.m3u8"]
        let result = try Command.run("ffmpeg", arguments)
        guard result.status == 0 else { throw CommandError.failed("ffmpeg hls variants", result) }
        try FileManager.default.moveItem(atPath: partial, toPath: folder)
        return folder
    }

    @Test(arguments: [
        // (config lines, the variant expected: folder and picture width)
        ("", "v2", 960),
        ("peak_bitrate = 1_200_000", "v1", 640),
        ("peak_bitrate = 1_000", "v0", 320),
        ("max_resolution = \"400x300\"", "v0", 320),
    ])
    func theVariantWithinTheLimitsPlays(config: String, folder expected: String, width: Int) throws {
        let nginx = try Nginx(root: try Self.variants())
        try nginx.start()
        let work = nginx.directory
        try "[playback]\n\(config)\n".write(toFile: "\(work)/marquee.toml", atomically: true, encoding: .utf8)
        let result = try MarqueeExecutable.run(["play", nginx.url("master.m3u8"), "--config", "\(work)/marquee.toml", "--untimed",
                                                "--video-out", "null", "--audio-out", "null", "--stats", "\(work)/stats.json"],
                                               timeout: 60)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(work)/stats.json"))) as? [String: Any]
        let picture = stats?["picture"] as? String ?? ""
        #expect(picture.hasPrefix("\(width)x"), "\(config): played \(picture)")
        #expect(stats?["framesPresented"] as? Int == 200, "the whole 8 s")
        let last = Set(nginx.requests().filter { $0.path.hasSuffix("seg003.ts") }
            .map { $0.path.split(separator: "/").dropLast().last.map(String.init) ?? "" })
        #expect(last == [expected], "\(config): the last segment fetched from \(last)")
    }
}
