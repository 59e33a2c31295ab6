import MarqueeFFmpeg

/// Reads an item's video backwards, for negative rates and stepping back: a
/// GOP at a time, from the latest keyframe before what is left to show, with
/// the frames of that GOP decoded forwards and handed out newest first.
///
/// Memory is bounded: at most `windowBytes` of decoded pictures are held. A
/// GOP larger than that (a 2 s GOP at 1080p is 50 frames, 155 MB) is done in
/// pieces: the newest frames that fit are kept and shown, and the GOP is
/// decoded again from its keyframe up to the oldest of them, so a long GOP
/// costs more decoding, never more memory.
///
/// One packet a step, like the forward path. Not thread-safe: owned by the
/// item's `ItemSource` on the source thread.
final class ReverseReader {
    /// 96 MiB: 31 frames of 8-bit 4:2:0 1080p, a whole 2 s GOP of 720p.
    static let defaultWindowBytes = 96 << 20

    enum Step {
        case frame(VideoFrame)
        /// A packet read or a seek done; nothing to hand out yet.
        case working
        /// Nothing earlier is left: the item's start was shown.
        case finished
        /// Video went to software decoding (why): this GOP is decoded again.
        case fellBack(String)
    }

    private let demuxer: Demuxer
    private let stream: Int
    private let decoder: FallbackVideoDecoder
    /// The item's first time: no seek goes below it.
    private let start: MediaTime
    private let windowBytes: Int
    /// Frames with a pts below this are still to be shown.
    private(set) var end: MediaTime

    private struct Chunk {
        /// The seek target this GOP was found from, and how far to go back
        /// from it if it holds nothing before `end`.
        let target: MediaTime
        let stepBack: MediaTime
        /// The pts of its keyframe: frames shown before it (the leading
        /// pictures of an open GOP) belong to the GOP before.
        var keyframe: MediaTime?
        /// Decoded frames in [keyframe, end), oldest first, at most the window.
        var frames: [VideoFrame] = []
        var bytes = 0
    }

    private enum Phase {
        case seek(target: MediaTime, stepBack: MediaTime)
        case decoding(Chunk)
        case done
    }

    private var phase: Phase
    /// The GOP decoded last, oldest first: handed out from its end.
    private var ready: [VideoFrame] = []

    /// - Parameter end: frames displayed before this stream time are read, newest first.
    init(demuxer: Demuxer, stream: Int, decoder: FallbackVideoDecoder, start: MediaTime, end: MediaTime,
         windowBytes: Int = ReverseReader.defaultWindowBytes) {
        self.demuxer = demuxer
        self.stream = stream
        self.decoder = decoder
        self.start = start
        self.end = end
        self.windowBytes = windowBytes
        phase = .seek(target: Self.justBefore(end), stepBack: Self.firstStepBack)
    }

    /// One packet read or decoded, one seek, or one frame handed out.
    /// - Throws: `FFmpegError` from the demuxer or decoder (a damaged
    ///   packet is the caller's to count, as on the forward path).
    func step() throws(FFmpegError) -> Step {
        if let frame = ready.popLast() { return .frame(frame) }
        switch phase {
        case .done:
            return .finished
        case .seek(let target, let stepBack):
            guard end > start else {
                phase = .done
                return .finished
            }
            try demuxer.seek(toShow: max(target, start), stream: stream)
            decoder.flush()
            phase = .decoding(Chunk(target: max(target, start), stepBack: stepBack))
            return .working
        case .decoding(var chunk):
            guard let packet = try demuxer.read() else {
                if case .frames(let frames) = try decoder.decode(nil) { _ = take(frames, into: &chunk) }
                finish(chunk)
                return .working
            }
            guard packet.streamIndex == stream else { return .working }
            if chunk.keyframe == nil {
                // Packets before the GOP's keyframe (an input without an index lands anywhere) decode to nothing whole.
                guard packet.isKeyframe, packet.pts.isValid else { return .working }
                chunk.keyframe = packet.pts
                if packet.pts >= end {
                    // The keyframe found shows after what is left: the GOP before holds it.
                    phase = furtherBack(than: chunk)
                    return .working
                }
            }
            phase = .decoding(chunk)
            switch try decoder.decode(packet) {
            case .frames(let frames):
                if take(frames, into: &chunk) { finish(chunk) } else { phase = .decoding(chunk) }
                return .working
            case .switchedToSoftware(let reason):
                // The frames inside the failed decoder are lost: this GOP again, in software.
                phase = .seek(target: chunk.target, stepBack: chunk.stepBack)
                return .fellBack(reason)
            }
        }
    }

    /// Keeps the frames of `chunk`'s range, trimming its oldest past the
    /// window. True once a frame at or past `end` came out: the GOP is whole
    /// (the decoder hands frames out in display order).
    private func take(_ frames: [VideoFrame], into chunk: inout Chunk) -> Bool {
        for decoded in frames {
            guard decoded.pts.isValid else { continue }
            if decoded.pts >= end { return true }
            if let keyframe = chunk.keyframe, decoded.pts < keyframe { continue }
            // A picture held for seconds must not hold a VA-API surface, of which the decoder has a few.
            let frame = (try? (decoded.storage as? any DMABufStorage)?.download(decoded)) ?? decoded
            chunk.frames.append(frame)
            chunk.bytes += frame.byteCount
            while chunk.bytes > windowBytes, chunk.frames.count > 1 {
                chunk.bytes -= chunk.frames.removeFirst().byteCount
            }
        }
        return false
    }

    /// The GOP is decoded: its frames go out newest first, and what is left
    /// ends at its oldest. One that held nothing before `end` sends the
    /// search further back.
    private func finish(_ chunk: Chunk) {
        guard let oldest = chunk.frames.first else {
            phase = furtherBack(than: chunk)
            return
        }
        ready = chunk.frames
        end = oldest.pts
        phase = .seek(target: Self.justBefore(end), stepBack: Self.firstStepBack)
    }

    /// A GOP that held nothing before `end`: search twice as far back, or stop at the item's start.
    private func furtherBack(than chunk: Chunk) -> Phase {
        chunk.target > start ? .seek(target: chunk.target - chunk.stepBack, stepBack: chunk.stepBack + chunk.stepBack) : .done
    }

    /// A millisecond before `time`: the seek then finds the keyframe of the
    /// frame before `time`, never the one at it.
    private static func justBefore(_ time: MediaTime) -> MediaTime { time - MediaTime(value: 1, timescale: 1000) }

    private static let firstStepBack = MediaTime(value: 1, timescale: 2)
}
