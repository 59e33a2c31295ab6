import CFFmpeg
import MarqueeCore

/// Reads compressed packets from a file or URL, in container order.
///
/// Not thread-safe: the demux thread owns it. Every blocking read is bounded
/// by `readTimeout`, so a stalled stream surfaces as an error, not a hang.
public final class Demuxer {
    let context: FormatContext
    /// The streams; without stream info, pixel and sample formats and codec
    /// profiles are unknown.
    public private(set) var media: MediaDescription
    /// Seconds a single read may block before it fails.
    public var readTimeout: Double = 10

    /// - Parameter headerWillDo: for a fast start, trust an MP4/MOV header
    ///   that describes every stream (see `FormatContext`); the playback path
    ///   uses it, and `readStreamInfo()` completes the picture on demand.
    public init(source: String, openTimeout: Double = 10, headerWillDo: Bool = false,
                network: NetworkOptions = NetworkOptions()) throws(FFmpegError) {
        context = try FormatContext(source: source, timeout: openTimeout, headerWillDo: headerWillDo, network: network)
        media = MediaProber.describe(context)
    }

    /// Reads the stream info opening left out (VA-API needs the codec
    /// profile and bit depth); does nothing when it is there. Call it before
    /// the first `read`.
    public func readStreamInfo() throws(FFmpegError) {
        guard !context.hasStreamInfo else { return }
        try context.readStreamInfo()
        media = MediaProber.describe(context)
    }

    public var source: String { context.source }

    /// Streams outside this set are discarded inside libavformat, so their
    /// packets are never read into memory.
    public func select(streams: Set<Int>) {
        for index in 0..<context.streamCount {
            context.stream(index).pointee.discard = streams.contains(index) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// The next packet, or nil at the end of the input.
    public func read() throws(FFmpegError) -> Packet? {
        guard let packet = av_packet_alloc() else { throw .outOfMemory("av_packet_alloc", source: source) }
        context.deadline.arm(seconds: readTimeout)
        defer { context.deadline.arm(seconds: nil) }
        let code = av_read_frame(context.pointer, packet)
        if code < 0 {
            var doomed: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&doomed)
            var error = FFmpegError(code: code, call: "av_read_frame", source: source)
            if error.isEndOfFile { return nil }
            // Neither cancelled nor aborted, an interrupt is the deadline: now, or
            // in an earlier read whose error the input keeps returning.
            if error.isInterrupted, !context.deadline.isStopped {
                error = FFmpegError(code: code, call: "av_read_frame",
                                    message: "nothing received for \(String(readTimeout, places: 0)) s", source: source)
            }
            throw error
        }
        return Packet(taking: packet, timeBase: context.stream(Int(packet.pointee.stream_index)).pointee.time_base)
    }

    /// Seeks so the next packets start at the latest keyframe at or before `time`
    /// (the decoder then discards frames up to `time` for an exact seek).
    public func seek(to time: MediaTime) throws(FFmpegError) {
        let target = time.value(inTimeBase: 1, AV_TIME_BASE, rounding: .down) ?? 0
        context.deadline.arm(seconds: readTimeout)
        defer { context.deadline.arm(seconds: nil) }
        try check(avformat_seek_file(context.pointer, -1, .min, target, target, 0),
                  "avformat_seek_file", source: source)
    }

    /// Seeks so that the frame of video stream `stream` shown at `time` can
    /// be decoded: to the latest keyframe at or before it, and further back
    /// while that keyframe is displayed after `time`. Then the frame at
    /// `time` is a leading picture of an open GOP (open-GOP H.264, HEVC CRA,
    /// broadcast streams) or lies in the GOP before, and decodes only from
    /// the keyframe before. Leaves the input at the keyframe found.
    public func seek(toShow time: MediaTime, stream: Int) throws(FFmpegError) {
        var limit = time
        var back = Self.firstStepBack
        for _ in 0..<Self.maximumStepsBack {
            try seek(to: limit)
            guard let landed = try firstKeyframe(of: stream, before: time), landed.keyframe == nil else { break }
            // An index places a keyframe by decode time: just before the one
            // found is the keyframe before. A container without an index
            // (MPEG-TS) is searched by timestamp, lands anywhere, and goes
            // back by a growing distance instead.
            limit = min(landed.first - MediaTime(value: 1, timescale: 1_000_000), limit - back)
            back = back + back
        }
        try seek(to: limit)
    }

    /// How far back a seek that landed after its frame goes first, doubling
    /// each time up to `maximumStepsBack` times (7.5 s in all): one keyframe
    /// is enough for an open GOP; more would decode seconds for one frame.
    static let firstStepBack = MediaTime(value: 1, timescale: 2)
    static let maximumStepsBack = 4

    /// Reads on from here to the first keyframe of `stream`: its pts when
    /// it is displayed by `time`, nil when it is not (or a packet decoded
    /// after `time` comes first), with where the first packet of `stream`
    /// read was placed. Nil for no packet of `stream` at all.
    private func firstKeyframe(of stream: Int, before time: MediaTime) throws(FFmpegError)
        -> (first: MediaTime, keyframe: MediaTime?)? {
        var first: MediaTime?
        while let packet = try read() {
            guard packet.streamIndex == stream, packet.pts.isValid else { continue }
            let placed = packet.dts.isValid ? min(packet.dts, packet.pts) : packet.pts
            if first == nil { first = placed }
            if packet.isKeyframe { return (first ?? placed, packet.pts <= time ? packet.pts : nil) }
            if placed > time { return (first ?? placed, nil) }
        }
        return first.map { ($0, nil) }
    }

    /// Cancels a blocking read from another thread; later reads fail at once.
    public func interrupt() { context.deadline.cancel() }

    /// Ends a blocking read from another thread (it fails), and makes every
    /// I/O fail at once until `resumeReading`: a read-ahead thread is
    /// stopped this way for a seek.
    public func abortRead() { context.deadline.abort() }
    public func resumeReading() { context.deadline.resume() }

    /// Where stream `index` ends as the container declares it (start time
    /// plus duration, an MP4 edit list included); nil when it does not say.
    /// The decoder may give more: an AAC stream's last frame is whole, padding and all.
    public func declaredEnd(ofStream index: Int) -> MediaTime? {
        let stream = context.stream(index).pointee
        let start = MediaTime(libav: stream.start_time, timeBase: stream.time_base)
        let duration = MediaTime(libav: stream.duration, timeBase: stream.time_base)
        guard start.isNumeric, duration.isNumeric, duration > .zero else { return nil }
        return start + duration
    }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> { context.stream(index) }
}
