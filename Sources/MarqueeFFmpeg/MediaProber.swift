import CFFmpeg
import MarqueeCore

/// Opens an input just long enough to describe it.
public enum MediaProber {
    /// Blocking: call it off the cooperative thread pool (the `Asset` does).
    /// - Parameter timeout: seconds allowed for opening and reading the headers.
    public static func describe(_ source: String, timeout: Double = 10) throws(FFmpegError) -> MediaDescription {
        describe(try FormatContext(source: source, timeout: timeout))
    }

    static func describe(_ context: FormatContext) -> MediaDescription {
        let tracks = (0..<context.streamCount).map { TrackProbe.describe(context.stream($0), container: context) }
        let bitRate = context.pointer.pointee.bit_rate
        return MediaDescription(
            source: context.source,
            containerFormat: context.containerFormat,
            duration: context.duration,
            startTime: context.startTime,
            bitRate: bitRate > 0 ? Int(bitRate) : nil,
            tracks: tracks,
            metadata: context.metadata)
    }
}
