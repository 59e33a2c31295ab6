import Foundation
import MarqueeTestSupport
import Testing

/// `marquee info` on every real-world file we have: it either describes the
/// file with ffprobe's duration, or refuses it in one line naming the file.
@Suite struct InfoManifestTests {
    @Test(arguments: try SharedMedia.manifest())
    func infoReportsOrRefusesCleanly(_ entry: SharedMedia.Entry) throws {
        let result = try MarqueeExecutable.run(["info", "--json", entry.path], timeout: 5)
        #expect(!result.timedOut, "took more than 5 s")
        #expect(result.status == 0 || result.status == 1, "crashed or was killed: status \(result.status)")

        if result.status == 0 {
            let report = try #require(try InfoJSON.decode(result.stdout).first)
            let ours = try #require(report.duration, "no duration reported")
            let theirs = try #require(try FFprobe.formatDuration(entry.path), "ffprobe has no duration")
            let allowed = report.tracks.contains { $0.type == "video" }
                ? 1 / (report.tracks.compactMap(\.frame_rate).first ?? 25) : 0.050
            #expect(abs(ours - theirs) <= allowed + 1e-6, "\(ours) s vs ffprobe \(theirs) s")
            #expect(report.tracks.contains { $0.decodable && ($0.type == "video" || $0.type == "audio") })
        } else {
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "expected one error line, got: \(result.stderr)")
            #expect(lines.first?.contains(entry.path) == true, "error line does not name the file")
        }
    }

    @Test func aBadInputDoesNotHideTheGoodOnes() throws {
        let good = try Fixtures.path(Fixtures.codecMatrix[0])
        let result = try MarqueeExecutable.run(["info", "/missing/a.mp4", good, "\(SharedMedia.directory)/androidx/sample_malformed_free_box.mp4"])
        #expect(result.status == 1)
        #expect(result.stdout.contains(good))
        #expect(result.stdout.contains("h264"))
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 2)
        #expect(errors.first?.contains("/missing/a.mp4") == true)
        #expect(errors.first?.contains("No such file or directory") == true)
        #expect(errors.last?.contains("sample_malformed_free_box.mp4") == true)
    }

    @Test func theTableNamesEveryTrack() throws {
        let path = try Fixtures.path(Fixtures.codecMatrix[1])
        let result = try MarqueeExecutable.run(["info", path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("#0 video"))
        #expect(result.stdout.contains("hevc"))
        #expect(result.stdout.contains("320x240"))
        #expect(result.stdout.contains("#1 audio"))
        #expect(result.stdout.contains("mp3"))
    }

    /// What the player will apply: the orientation from the display matrix,
    /// the colour as tagged (or guessed by size, said so), the field order.
    @Test func infoSaysHowThePictureIsShown() throws {
        let media = SharedMedia.directory
        let result = try MarqueeExecutable.run(["info", "--json", "\(media)/androidx/internal_emulator_transformer_output_270_rotated.mp4",
                                                "\(media)/androidx/bt601.mov", "\(media)/androidx/sample_with_htc_rotation_track_name.mkv",
                                                "\(media)/interlace/bt601-525_480_interlaced_tff.mkv"])
        #expect(result.status == 0, "\(result.stderr)")
        let video = try InfoJSON.decode(result.stdout).map { try #require($0.tracks.first { $0.type == "video" }) }
        #expect(video.map(\.rotation) == [270, 0, 0, 0])
        #expect(video.map(\.mirrored) == [false, false, false, false])
        #expect(video.map(\.color_matrix) == ["bt709", "bt601", "bt709", "bt601"], "1080x720 untagged is HD: BT.709")
        #expect(video.map(\.color_range) == ["limited", "limited", "limited", "limited"])
        #expect(video[3].field_order == "topFieldFirst")
        let table = try MarqueeExecutable.run(["info", "\(media)/androidx/sample_with_htc_rotation_track_name.mkv"])
        #expect(table.stdout.contains("limited BT.709 (guessed)"), "\(table.stdout)")
    }

    /// Issue 15: what the player will do to interlaced and HDR pictures,
    /// under the deinterlacing flags `play` takes.
    @Test func infoSaysHowInterlacedAndHDRPicturesAreConverted() throws {
        let media = SharedMedia.directory
        let files = ["\(media)/interlace/bt601-525_480_interlaced_bff.ts", "\(media)/androidx/hlg10-color-test.mp4",
                     "\(media)/androidx/hdr10-av1.mp4", "\(media)/androidx/bt601.mov"]
        let byDefault = try MarqueeExecutable.run(["info", "--json"] + files)
        #expect(byDefault.status == 0, "\(byDefault.stderr)")
        let video = try InfoJSON.decode(byDefault.stdout).map { try #require($0.tracks.first { $0.type == "video" }) }
        #expect(video.map(\.deinterlace) == ["bwdif frame", "off", "off", "off"])
        #expect(video.map(\.hdr) == ["none", "tonemap HLG->SDR hable", "tonemap PQ->SDR hable", "none"])
        let fields = try MarqueeExecutable.run(["info", "--json", "--deinterlace-rate", "field"] + files)
        #expect(try InfoJSON.decode(fields.stdout).compactMap { $0.tracks.first { $0.type == "video" }?.deinterlace }
                == ["bwdif field", "off", "off", "off"])
        let all = try MarqueeExecutable.run(["info", "--deinterlace", "on", files[3]])
        #expect(all.stdout.contains("limited BT.601  bwdif frame"), "\(all.stdout)")
        let none = try MarqueeExecutable.run(["info", "--deinterlace", "off", files[0]])
        #expect(none.stdout.contains("interlaced (BFF)  deinterlace off"), "\(none.stdout)")
        #expect(try MarqueeExecutable.run(["info", "--deinterlace", "sometimes", files[0]]).status == 2)
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try MarqueeExecutable.run(["info"]).status == 2)
        #expect(try MarqueeExecutable.run(["info", "--bogus", "x"]).status == 2)
        #expect(try MarqueeExecutable.run(["frobnicate"]).status == 2)
    }
}

/// The subset of `marquee info --json` the tests read.
struct InfoJSON: Decodable {
    struct Track: Decodable {
        let type: String
        let decodable: Bool
        let frame_rate: Double?
        let rotation: Int?
        let mirrored: Bool?
        let color_range: String?
        let color_matrix: String?
        let field_order: String?
        let deinterlace: String?
        let hdr: String?
    }

    let source: String
    let duration: Double?
    let tracks: [Track]

    static func decode(_ text: String) throws -> [InfoJSON] {
        try JSONDecoder().decode([InfoJSON].self, from: Data(text.utf8))
    }
}
