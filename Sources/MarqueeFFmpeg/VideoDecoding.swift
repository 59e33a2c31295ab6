import MarqueeCore

/// What decodes an item's video: libavcodec in software, or on a VA-API
/// device. Not thread-safe: the engine's source thread owns it.
public protocol VideoDecoding: AnyObject {
    var kind: VideoDecoderKind { get }
    /// libavcodec's name of the codec's decoder ("h264", "hevc").
    var decoderName: String { get }
    /// Decodes `packet` (nil drains the decoder at the end of the stream) and
    /// returns the frames that became ready, in presentation order.
    func decode(_ packet: Packet?) throws(FFmpegError) -> [VideoFrame]
    /// Forgets buffered frames, e.g. after a seek.
    func flush()
}

/// Which decoder produces the frames, as the stats and `marquee info` name it.
public enum VideoDecoderKind: String, Sendable, Codable {
    case vaapi
    case software
    /// The software decoder posing as a hardware one that fails on purpose
    /// (`HardwareDecoding.failAfterFrames`), to test the fallback.
    case testFault = "test-fault"
}
