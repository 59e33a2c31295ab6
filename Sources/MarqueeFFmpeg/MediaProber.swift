import CFFmpeg
import MarqueeCore

/// Opens an input just long enough to describe it.
public enum MediaProber {
    /// Blocking: call it off the cooperative thread pool (the `Asset` does).
    /// - Parameters:
    ///   - timeout: seconds allowed for opening and reading the headers.
    ///   - network: how a network source is opened (an RTSP stream's transport).
    public static func describe(_ source: String, timeout: Double = 10,
                                network: NetworkOptions = NetworkOptions()) throws(FFmpegError) -> MediaDescription {
        describe(try FormatContext(source: source, timeout: timeout, network: network))
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
            metadata: context.metadata,
            variants: variants(context, tracks: tracks))
    }

    /// libavformat's HLS reader makes each variant a program, with its
    /// declared bandwidth as `variant_bitrate`.
    private static func variants(_ context: FormatContext, tracks: [TrackDescription]) -> [StreamVariant] {
        let format = context.pointer.pointee
        return (0..<Int(format.nb_programs)).compactMap { index -> StreamVariant? in
            guard let program = format.programs[index]?.pointee,
                  let bitRate = dictionary(program.metadata)["variant_bitrate"].flatMap(Int.init) else { return nil }
            let streams = (0..<Int(program.nb_stream_indexes)).map { Int(program.stream_index[$0]) }
            let video = tracks.first { streams.contains($0.id) && $0.mediaType == .video }?.video
            return StreamVariant(bitRate: bitRate, tracks: streams, width: video?.width, height: video?.height)
        }
    }
}
