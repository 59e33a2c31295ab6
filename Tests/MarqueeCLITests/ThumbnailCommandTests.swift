import Foundation
import MarqueeTestSupport
import Testing

/// `marquee thumbnail` (issue 22): pictures at times, a contact sheet, and
/// bad requests as one line each while the rest are still written.
@Suite struct ThumbnailCommandTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnail-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func picturesAtTimesAndASheet() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 4, fps: 25, size: "320x240"))
        let out = try Self.folder()
        let result = try MarqueeExecutable.run(["thumbnail", clip, "--at", "0.5", "--at", "2.5", "--at", "9", "--exact",
                                                "--size", "160x160", "-o", "\(out)/t-%d.png"], timeout: 60)
        #expect(result.status == 1, "a time outside the item makes the exit status 1")
        #expect(result.stdout == "0.500 0.480 \(out)/t-1.png\n2.500 2.480 \(out)/t-2.png\n", "\(result.stdout)")
        #expect(result.stderr.hasSuffix("9.000 s is outside the item (0 to 4.000 s)\n") && result.stderr.split(separator: "\n").count == 1,
                "\(result.stderr)")
        #expect(try HTTPControlTests.size("\(out)/t-1.png") == "160x120")
        #expect(!FileManager.default.fileExists(atPath: "\(out)/t-3.png"))

        let sheet = try MarqueeExecutable.run(["thumbnail", clip, "--every", "0.5", "--size", "80x60", "-o", "\(out)/sheet.png"], timeout: 60)
        #expect(sheet.status == 0, "\(sheet.stderr)")
        #expect(sheet.stdout.hasPrefix("8 pictures every 0.5 s, 3x3 tiles of 80x60"), "\(sheet.stdout)")
        #expect(try HTTPControlTests.size("\(out)/sheet.png") == "240x180")
    }

    @Test(arguments: [
        (["--at", "1"], "thumbnail needs -o PATTERN.png"),
        (["--at", "1", "--at", "2", "-o", "x.png"], "-o: several --at need %d in the name, e.g. thumb-%d.png"),
        (["--size", "0x90", "--at", "1", "-o", "x.png"], "--size: '0x90' is not WIDTHxHEIGHT, each 1 to 16384"),
        (["--at", "1", "--every", "2", "-o", "x.png"], "thumbnail takes --at times or --every SECONDS, one of the two"),
        (["--at", "soon", "-o", "x.png"], "--at: 'soon' is not a time in seconds"),
    ])
    func badArgumentsAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let result = try MarqueeExecutable.run(["thumbnail", "clip.mp4"] + arguments, timeout: 20)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("marquee: \(message)\n"), "\(result.stderr)")
    }
}
