import Foundation
import MarqueeCore
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// A file libavformat opens but whose streams it cannot read
/// (`avformat_find_stream_info` fails): found by the damaged-file fuzz
/// (seed 384853960, case 69), where the context was closed twice, once by
/// the failed open and again by the deinit that the throw ran (SIGSEGV in
/// avformat_close_input). One byte of a real Matroska file, changed, is
/// enough: the open fails with the call named, every time, and nothing else.
@Suite struct UnreadableStreamsTests {
    static func damaged() throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(SharedMedia.directory)/androidx/sample_with_htc_rotation_track_name.mkv")))
        bytes[462] ^= 6
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unreadable-\(UUID().uuidString).mkv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func anOpenWhoseStreamInfoFailsThrowsNamingTheCall() throws {
        let path = try Self.damaged()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for _ in 0..<20 {
            #expect(throws: FFmpegError.self) { _ = try Demuxer(source: path) }
            do {
                _ = try MediaProber.describe(path)
                Issue.record("the damaged file was described")
            } catch {
                #expect("\(error)".contains("avformat_find_stream_info"), "\(error)")
            }
        }
    }
}
