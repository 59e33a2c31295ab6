import Foundation

/// The reference answers tests compare Marquee against.
public enum FFprobe {
    /// `ffprobe -show_format` duration in seconds, nil when ffprobe gives none.
    public static func formatDuration(_ path: String) throws -> Double? {
        let result = try Command.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path], timeout: 30)
        return Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Frames libavcodec decodes from the first stream of a type ("v" or "a"), by `-count_frames`.
    public static func decodedFrameCount(_ path: String, stream: String) throws -> Int {
        let result = try Command.run("ffprobe", ["-v", "error", "-select_streams", "\(stream):0", "-count_frames",
                                                 "-show_entries", "stream=nb_read_frames", "-of", "default=nw=1:nk=1", path], timeout: 120)
        // MPEG-TS adds program sections to the output: the stream's line is the first one.
        let firstLine = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
        guard result.status == 0, let count = Int(firstLine.trimmingCharacters(in: .whitespaces)) else {
            throw CommandError.failed("ffprobe -count_frames \(path)", result)
        }
        return count
    }
}
