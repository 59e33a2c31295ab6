import CFFmpeg
import MarqueeCore

/// An item's video decoder: the hardware one while it works, libavcodec in
/// software once it cannot. Set-up failures (no device, no driver, a codec or
/// profile the driver lacks) fall back when the item opens; at run time,
/// `failureLimit` decode errors in a row (a hung GPU, no free surface), an
/// error while draining at the end, or a hwaccel libavcodec refused fall back
/// mid-stream, and so do hardware frames that need deinterlacing or HDR
/// conversion (`PictureFilter` works on software frames). Switching mid-stream
/// loses the frames inside the failed decoder: the caller rewinds the input
/// to a keyframe and skips what it already showed (`ItemSource`).
///
/// Every frame decoded goes through the item's `PictureFilter` before it is
/// handed on.
///
/// A software decoder started on slice threads alone can be given frame
/// threads (`useFrameThreads`) when it does not keep up: from the next
/// keyframe, with nothing lost. The decoder in use is drained into that
/// packet's output and a new one, with frame threads, starts at the
/// keyframe. (After an open-GOP keyframe, an HEVC CRA, the few pictures
/// shown before it but decoded after it need the old decoder's references:
/// the new one leaves them out, once.)
///
/// At a start with nothing on screen, the first keyframe's picture can be
/// decoded ahead (`decodeFirstPictureAhead`, `PictureAhead`) beside the
/// decoder in use, which would hold it back for the frames its reordering
/// waits for; the decoder in use's copy is then dropped.
///
/// Not thread-safe: the source thread owns it.
public final class FallbackVideoDecoder {
    public private(set) var current: any VideoDecoding
    /// Why hardware decoding could not be set up when the item opened (nil
    /// when it was, or software was asked for).
    public let setupFailure: HardwareDecodingError?
    private let openSoftware: (DecoderThreads) throws(FFmpegError) -> VideoDecoder
    public private(set) var threads: DecoderThreads
    /// Frame threads were asked for: the next keyframe brings them in.
    private var framesAtNextKeyframe = false
    private let filter: PictureFilter
    /// The codec may show pictures in another order than it decodes them
    /// (B-frames): only then does a decoder hold a keyframe back.
    private let reorders: Bool
    /// Asked for by `decodeFirstPictureAhead`: the next keyframe starts it.
    private var aheadAtNextKeyframe = false
    private var ahead: PictureAhead?
    /// The picture decoded ahead was handed on: the decoder in use's own
    /// copy of it is dropped (and nothing shown before it comes after it).
    private var shownAhead: MediaTime?
    private var consecutiveFailures = 0
    /// Decode errors in a row after which a hardware decoder is given up.
    public static let failureLimit = 3

    public enum Outcome {
        case frames([VideoFrame])
        /// The hardware decoder was replaced by software; `reason` is one line.
        /// The packet just given was not decoded by either.
        case switchedToSoftware(reason: String)
    }

    /// Opens the decoder `hardware` asks for on `stream` of `demuxer`, its
    /// pictures deinterlaced as `deinterlacing` says. A reduced-resolution
    /// decode (`lowres` above 0) is software's alone.
    /// - Throws: `FFmpegError` only when software decoding cannot be set up either.
    public init(demuxer: Demuxer, stream: Int, threads: DecoderThreads, hardware: HardwareDecoding,
                deinterlacing: Deinterlacing = Deinterlacing(), lowres: Int = 0) throws(FFmpegError) {
        self.threads = threads
        // Every software decoder, this one and those opened mid-stream, from the parameters as they are now (`CodecParameters`).
        let parameters = try CodecParameters(copying: demuxer.stream(stream), source: demuxer.source)
        let picture = StreamPicture(demuxer.stream(stream))
        openSoftware = { (threads) throws(FFmpegError) in
            try VideoDecoder(parameters: parameters, picture: picture, source: demuxer.source, threads: threads, lowres: lowres)
        }
        filter = PictureFilter(deinterlacing: deinterlacing, timeBase: demuxer.stream(stream).pointee.time_base, source: demuxer.source)
        let codecID = demuxer.stream(stream).pointee.codecpar.pointee.codec_id
        reorders = avcodec_descriptor_get(codecID).map { $0.pointee.props & AV_CODEC_PROP_REORDER != 0 } ?? false
        guard hardware.mode != .software, lowres == 0 else {
            current = try openSoftware(threads)
            setupFailure = nil
            return
        }
        if let failAfter = hardware.failAfterFrames {
            current = FaultInjectingVideoDecoder(wrapping: try openSoftware(threads), failAfter: failAfter)
            setupFailure = nil
            return
        }
        do throws(HardwareDecodingError) {
            current = try VAAPIVideoDecoder(demuxer: demuxer, stream: stream, device: try RenderNode.resolve(hardware.device))
            setupFailure = nil
        } catch {
            current = try openSoftware(threads)
            setupFailure = error
        }
    }

    /// Decodes `packet` (nil drains the decoder and the filter at the end of
    /// the stream) and returns the pictures to show, filtered.
    /// - Throws: `FFmpegError` from the software decoder, or from libavfilter.
    public func decode(_ packet: Packet?) throws(FFmpegError) -> Outcome {
        var frames: [VideoFrame]
        do throws(FFmpegError) {
            startPictureAhead(at: packet)
            frames = try takeFrameThreads(at: packet)
            frames += try current.decode(packet)
            consecutiveFailures = 0
        } catch {
            guard current.kind != .software else { throw error }
            consecutiveFailures += 1
            // No retry helps a refused hwaccel, and a failed drain gets no further packets to retry with.
            let refused = error.kind == .hardwareRefused
            let draining = packet == nil
            guard refused || draining || consecutiveFailures >= Self.failureLimit else { throw error }
            let failed = current.kind
            let count = refused || draining ? (draining ? " draining" : "") : " \(consecutiveFailures) times in a row"
            try switchToSoftware()
            return .switchedToSoftware(reason: "\(failed.rawValue) decoder failed\(count) (\(error.call): \(error.message))")
        }
        if let surface = frames.first(where: { $0.planes.isEmpty && !filter.filters(for: $0).isNone }) {
            let failed = current.kind
            try switchToSoftware()
            return .switchedToSoftware(reason: "\(failed.rawValue) frames need \(filter.filters(for: surface)), which Marquee does in software")
        }
        var shown = try filter.filter(frames)
        if packet == nil { shown += try filter.drain() }
        return .frames(withPictureAhead(shown))
    }

    /// Forgets buffered frames in the decoder and the filter, e.g. after a seek.
    public func flush() {
        current.flush()
        filter.reset()
        (aheadAtNextKeyframe, ahead, shownAhead) = (false, nil, nil)
    }

    /// The next keyframe's picture decoded ahead as well, for a start with
    /// nothing on screen: where the decoder in use is software on slice
    /// threads alone and the codec reorders (frame threads overlap the
    /// frames a keyframe waits for already; a hardware decoder is fast).
    public func decodeFirstPictureAhead() {
        aheadAtNextKeyframe = reorders && current.kind == .software && !threads.frames
    }

    /// The picture decoded ahead, once it is ready, unless the decoder in
    /// use gave its own first (or it needs filtering: a filter keeps the
    /// state of the frames before, which this one must not skip).
    public func pictureAhead() -> VideoFrame? {
        guard let ahead, case .some(let picture) = ahead.picture else { return nil }
        self.ahead = nil
        guard let picture, filter.filters(for: picture).isNone else { return nil }
        shownAhead = picture.pts
        return picture
    }

    private func startPictureAhead(at packet: Packet?) {
        guard aheadAtNextKeyframe, let packet, packet.isKeyframe else { return }
        aheadAtNextKeyframe = false
        // A decoder that cannot be opened here leaves the picture to the decoder in use, which reports its own errors.
        guard let decoder = try? openSoftware(DecoderThreads(count: 1)) else { return }
        ahead = PictureAhead(decoder: decoder, keyframe: packet)
    }

    /// `frames` from the decoder in use, after the picture decoded ahead if
    /// it came first, without the decoder's own copy of it.
    private func withPictureAhead(_ frames: [VideoFrame]) -> [VideoFrame] {
        let first = pictureAhead()
        if first == nil, !frames.isEmpty { ahead = nil }
        var kept = first.map { [$0] } ?? []
        for frame in frames {
            if let shown = shownAhead, frame.pts.isValid {
                if frame.pts <= shown { continue }
                shownAhead = nil
            }
            kept.append(frame)
        }
        return kept
    }

    /// Frame threads from the next keyframe on (a software decoder on slice
    /// threads alone; otherwise nothing changes).
    public func useFrameThreads() {
        framesAtNextKeyframe = !threads.frames
    }

    /// At the keyframe after `useFrameThreads`: the frames the decoder in
    /// use still holds, and a decoder with frame threads in its place.
    private func takeFrameThreads(at packet: Packet?) throws(FFmpegError) -> [VideoFrame] {
        guard framesAtNextKeyframe, packet?.isKeyframe == true, current.kind == .software else { return [] }
        framesAtNextKeyframe = false
        let held = try current.decode(nil)
        threads = threads.withFrames
        current = try openSoftware(threads)
        return held
    }

    private func switchToSoftware() throws(FFmpegError) {
        current = try openSoftware(threads)
        consecutiveFailures = 0
        filter.reset()
    }
}
