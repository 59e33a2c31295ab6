import CFFmpeg

/// How many threads a software decoder runs, and how it shares the work.
public struct DecoderThreads: Equatable, Sendable, ExpressibleByIntegerLiteral {
    /// 0 lets libavcodec pick (one per core, and one more).
    public var count: Int
    /// Frame threads: each thread decodes a frame of its own, so each holds
    /// a picture more and the output comes a frame later per thread (12 MB
    /// a picture at 4K). Without them the threads share the slices, or the
    /// wavefront rows, of one frame: nothing more held, but parallel only
    /// where the stream has those (HEVC from x265 has wavefronts, H.264 from
    /// x264 one slice a frame).
    public var frames: Bool

    public init(count: Int, frames: Bool = true) {
        self.count = count
        self.frames = frames
    }

    public init(integerLiteral count: Int) {
        self.init(count: count)
    }

    /// The same threads working on frames of their own.
    public var withFrames: DecoderThreads { DecoderThreads(count: count, frames: true) }

    var threadType: Int32 { frames ? FF_THREAD_FRAME | FF_THREAD_SLICE : FF_THREAD_SLICE }
}
