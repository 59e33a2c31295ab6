import Foundation
import MarqueeTestSupport
import Testing

/// The cases CI's damaged-file fuzz found, made again from the shared media
/// (`Tests/fuzz/play_fuzz.py --replay SEED:CASE --write PATH`: the same bytes
/// for the same seed) and played as the fuzz plays them, several times,
/// since the hangs came one run in three:
/// - 384853960:69, Matroska whose stream info cannot be read: a SIGSEGV
///   (the format context closed twice);
/// - 384853960:185 and 1860597274:164, damaged 1080p AV1: a deadlock in
///   libdav1d 1.0's `dav1d_send_data` after the second pass's flush, which
///   not even SIGTERM ended (a libdav1d decoder is now opened afresh
///   instead of flushed).
@Suite struct FuzzRegressionTests {
    static let cases = ["384853960:69", "384853960:185", "1860597274:164"]

    @Test(arguments: cases)
    func aCaseTheFuzzFoundEndsWithOrWithoutAnError(_ replay: String) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fuzz/play_fuzz.py").path
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(replay.replacing(":", with: "-"))").path
        let written = try Command.run("python3", [script, "--marquee", MarqueeExecutable.path, "--replay", replay, "--write", path])
        try #require(written.status == 0, "\(written.stderr)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for run in 1...3 {
            let result = try MarqueeExecutable.run(["play", path, "--loops", "2", "--untimed", "--video-out", "null", "--audio-out", "null",
                                                    "--hwdec", "software"], timeout: 90)
            #expect(result.status == 0 || (result.status == 1 && !result.stderr.isEmpty),
                    "run \(run): status \(result.status): \(result.stderr.suffix(400))")
        }
    }
}
