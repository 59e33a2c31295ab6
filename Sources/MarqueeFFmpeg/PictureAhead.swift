import MarqueeCore
import Synchronization

/// The first picture after a start, decoded on a thread of its own by a
/// decoder that is given its keyframe alone and drained. The decoder in use,
/// on slice threads, holds a keyframe back until the frames its reordering
/// waits for are decoded too (x264's B-pyramid: the keyframe, a P-frame and
/// a B-frame, one after the other on one core where the stream has one slice
/// a frame); the keyframe alone is one frame's work, done on the other core
/// meanwhile. Whichever decoder gives the picture first has it shown
/// (`FallbackVideoDecoder`).
///
/// `@unchecked Sendable`: the decoder is used by the thread alone; the
/// picture crosses under `result`'s lock.
final class PictureAhead: @unchecked Sendable {
    private let decoder: VideoDecoder
    /// nil while decoding; then the picture, or nil when none came (an error,
    /// a keyframe the decoder cannot show alone).
    private let result = Mutex<VideoFrame??>(nil)

    init(decoder: VideoDecoder, keyframe: Packet) {
        self.decoder = decoder
        NamedThread.start("marquee.ahead") { [self] in
            let picture = decode(keyframe)
            result.withLock { $0 = .some(picture) }
        }
    }

    private func decode(_ keyframe: Packet) -> VideoFrame? {
        do throws(FFmpegError) {
            if let picture = try decoder.decode(keyframe).first { return picture }
            return try decoder.decode(nil).first
        } catch {
            // The decoder in use meets the same packet and reports what is wrong with it.
            return nil
        }
    }

    /// The picture once decoded: nil while decoding, .some(nil) when none came.
    var picture: VideoFrame?? { result.withLock { $0 } }
}
