import CMarqueeShims
import Glibc
import MarqueeCore

/// The software decoder standing in for a hardware one that breaks down:
/// after `failAfter` frames every call throws, as a VA-API decoder does when
/// the GPU hangs or runs out of surfaces: at most `failAfter` frames come out. `FallbackVideoDecoder` treats it
/// exactly as it treats `VAAPIVideoDecoder`, which is what lets the fallback
/// be tested on machines without a VA-API device.
final class FaultInjectingVideoDecoder: VideoDecoding {
    private let base: VideoDecoder
    private let failAfter: Int
    private var delivered = 0

    init(wrapping base: VideoDecoder, failAfter: Int) {
        self.base = base
        self.failAfter = failAfter
    }

    var kind: VideoDecoderKind { .testFault }
    var decoderName: String { base.decoderName }

    /// Throws once `failAfter` frames are out, and for a call whose frames
    /// would go past that: those are lost inside the "hardware", as they are
    /// when a real one fails.
    func decode(_ packet: Packet?) throws(FFmpegError) -> [VideoFrame] {
        let frames = delivered < failAfter ? try base.decode(packet) : []
        guard delivered < failAfter, delivered + frames.count <= failAfter else {
            delivered = failAfter
            throw FFmpegError(code: marquee_averror(EIO), call: "avcodec_send_packet",
                              message: "injected failure after \(failAfter) frames", kind: .decoding)
        }
        delivered += frames.count
        return frames
    }

    func flush() { base.flush() }
}
