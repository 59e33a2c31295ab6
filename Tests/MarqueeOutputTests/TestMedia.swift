import Foundation
import Marquee
import MarqueeFFmpeg
import MarqueeTestSupport

/// Every decoded video frame of `path`, in presentation order.
func decodedVideoFrames(_ path: String) throws -> [VideoFrame] {
    let demuxer = try Demuxer(source: path)
    guard let track = demuxer.media.preferredTrack(.video) else { throw TestMediaError("\(path) has no video") }
    demuxer.select(streams: [track.id])
    let decoder = try VideoDecoder(demuxer: demuxer, stream: track.id, threads: 2)
    var frames: [VideoFrame] = []
    while let packet = try demuxer.read() {
        if packet.streamIndex == track.id { frames += try decoder.decode(packet) }
    }
    return frames + (try decoder.decode(nil))
}

/// ffprobe's `key=value` answers for the first stream of `path`, e.g.
/// `["width": "320", "nb_read_frames": "50"]`.
func probeStream(_ path: String, _ entries: String, countFrames: Bool = false) throws -> [String: String] {
    let result = try Command.run("ffprobe", ["-v", "error", "-select_streams", "0"] + (countFrames ? ["-count_frames"] : [])
                                 + ["-show_entries", "stream=\(entries)", "-of", "default=nw=1", path])
    guard result.status == 0 else { throw CommandError.failed("ffprobe \(path)", result) }
    var answers: [String: String] = [:]
    for line in result.stdout.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { answers[parts[0]] = parts[1] }
    }
    return answers
}

/// A fresh temporary directory, removed when the value is released.
final class ScratchDirectory: Sendable {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Lets a test hand a non-Sendable output to the one worker thread that uses it
/// while the test only drives the clock.
final class Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

struct TestMediaError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension HostTime {
    static func ms(_ milliseconds: Int64) -> HostTime { HostTime(nanoseconds: milliseconds * 1_000_000) }
}
