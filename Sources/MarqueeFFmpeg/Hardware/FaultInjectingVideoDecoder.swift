import CMarqueeShims
import Glibc
import MarqueeCore

/// The software decoder standing in for a hardware one that breaks down:
/// after `failAfter` frames every call throws, as a VA-API decoder does when
/// the GPU hangs or runs out of surfaces. `FallbackVideoDecoder` treats it
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

    func decode(_ packet: Packet?) throws(FFmpegError) -> [VideoFrame] {
        guard delivered < failAfter else {
            throw FFmpegError(code: marquee_averror(EIO), call: "avcodec_send_packet",
                              message: "injected failure after \(failAfter) frames")
        }
        // Frames past the limit are lost inside the "hardware", as they would be in a real failure.
        let frames = try base.decode(packet).prefix(failAfter - delivered)
        delivered += frames.count
        return Array(frames)
    }

    func flush() { base.flush() }
}
