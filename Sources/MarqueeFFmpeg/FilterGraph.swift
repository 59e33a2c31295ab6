import CFFmpeg
import CMarqueeShims
import MarqueeCore

/// Owns a configured libavfilter graph with one video input and one output:
/// `buffer -> DESCRIPTION -> buffersink`. Frames go in with `push`, come out
/// with `pull`; `end` flushes what filters such as bwdif hold back.
///
/// Not thread-safe: one thread feeds and reads it.
final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let input: UnsafeMutablePointer<AVFilterContext>
    private let output: UnsafeMutablePointer<AVFilterContext>
    private let scratch: UnsafeMutablePointer<AVFrame>
    private let source: String
    /// The time base of the frames that come out (bwdif halves it).
    let outputTimeBase: AVRational

    /// What the graph's input receives; every pushed frame must match it.
    struct Input: Equatable {
        var width: Int
        var height: Int
        var format: AVPixelFormat
        var timeBase: AVRational

        static func == (a: Input, b: Input) -> Bool {
            (a.width, a.height, a.format, a.timeBase.num, a.timeBase.den) == (b.width, b.height, b.format, b.timeBase.num, b.timeBase.den)
        }
    }

    /// Builds and configures the graph `description` (libavfilter's syntax,
    /// e.g. "bwdif=mode=send_field") between a buffer fed with `input` and a sink.
    /// - Throws: `FFmpegError` naming the call; a description libavfilter
    ///   cannot parse or link (an unknown filter or option) fails in
    ///   `avfilter_graph_parse_ptr` or `avfilter_graph_config`, with the description in the message.
    init(_ description: String, input format: Input, source: String) throws(FFmpegError) {
        self.source = source
        guard let graph = avfilter_graph_alloc() else { throw .outOfMemory("avfilter_graph_alloc", source: source) }
        var owned: UnsafeMutablePointer<AVFilterGraph>? = graph
        guard let scratch = av_frame_alloc() else {
            avfilter_graph_free(&owned)
            throw .outOfMemory("av_frame_alloc", source: source)
        }
        do throws(FFmpegError) {
            // Pixel aspect is carried beside the frames (VideoFrame.sampleAspect); none of the filters resizes.
            let arguments = "video_size=\(format.width)x\(format.height):pix_fmt=\(format.format.rawValue)"
                + ":time_base=\(format.timeBase.num)/\(format.timeBase.den):pixel_aspect=1/1"
            input = try Self.createFilter("buffer", name: "in", arguments: arguments, in: graph, source: source)
            output = try Self.createFilter("buffersink", name: "out", arguments: nil, in: graph, source: source)
            try Self.parse(description, between: input, and: output, in: graph, source: source)
            try Self.checkSetUp(avfilter_graph_config(graph, nil), "avfilter_graph_config", describing: description, source: source)
        } catch {
            var doomedFrame: UnsafeMutablePointer<AVFrame>? = scratch
            av_frame_free(&doomedFrame)
            avfilter_graph_free(&owned)
            throw error
        }
        self.graph = graph
        self.scratch = scratch
        outputTimeBase = av_buffersink_get_time_base(output)
    }

    deinit {
        var doomedFrame: UnsafeMutablePointer<AVFrame>? = scratch
        av_frame_free(&doomedFrame)
        // Frees every filter context in it, the buffer and the sink included.
        avfilter_graph_free(&graph)
    }

    /// Hands `frame`'s buffers to the graph; `frame` is left empty (its
    /// references moved in), for the caller to free.
    func push(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        try check(av_buffersrc_add_frame_flags(input, frame, 0), "av_buffersrc_add_frame_flags", source: source)
    }

    /// Tells the graph no frame follows, so filters let go of what they hold.
    func end() throws(FFmpegError) {
        try check(av_buffersrc_add_frame_flags(input, nil, 0), "av_buffersrc_add_frame_flags", source: source)
    }

    /// The next filtered frame, or nil until more input (or the end) lets one out.
    func pull() throws(FFmpegError) -> AVFrameStorage? {
        let received = av_buffersink_get_frame(output, scratch)
        if received == marquee_averror_eagain() || received == marquee_averror_eof() { return nil }
        try check(received, "av_buffersink_get_frame", source: source)
        defer { av_frame_unref(scratch) }
        return try AVFrameStorage(referencing: scratch)
    }

    private static func createFilter(_ filter: String, name: String, arguments: String?,
                                     in graph: UnsafeMutablePointer<AVFilterGraph>,
                                     source: String) throws(FFmpegError) -> UnsafeMutablePointer<AVFilterContext> {
        guard let definition = avfilter_get_by_name(filter) else {
            throw FFmpegError(code: marquee_averror_filter_not_found(), call: "avfilter_get_by_name",
                              message: "libavfilter has no '\(filter)' filter", source: source)
        }
        var context: UnsafeMutablePointer<AVFilterContext>?
        try Self.checkSetUp(avfilter_graph_create_filter(&context, definition, name, arguments, nil, graph),
                       "avfilter_graph_create_filter", describing: "\(filter)=\(arguments ?? "")", source: source)
        guard let context else { throw .outOfMemory("avfilter_graph_create_filter", source: source) }
        return context
    }

    /// Parses `description` into the graph with its open input linked to
    /// `input` and its open output to `output`.
    private static func parse(_ description: String, between input: UnsafeMutablePointer<AVFilterContext>,
                              and output: UnsafeMutablePointer<AVFilterContext>,
                              in graph: UnsafeMutablePointer<AVFilterGraph>, source: String) throws(FFmpegError) {
        // Named from the description's side: its open input is fed by the buffer ("in"), its open output feeds the sink ("out").
        var openOutputs = avfilter_inout_alloc()
        var openInputs = avfilter_inout_alloc()
        // Parsing takes the lists and hands back whatever it left unlinked: that is freed here.
        defer {
            avfilter_inout_free(&openOutputs)
            avfilter_inout_free(&openInputs)
        }
        guard let buffered = openOutputs, let sink = openInputs else { throw .outOfMemory("avfilter_inout_alloc", source: source) }
        buffered.pointee.name = av_strdup("in")
        buffered.pointee.filter_ctx = input
        sink.pointee.name = av_strdup("out")
        sink.pointee.filter_ctx = output
        guard buffered.pointee.name != nil, sink.pointee.name != nil else { throw .outOfMemory("av_strdup", source: source) }
        try Self.checkSetUp(avfilter_graph_parse_ptr(graph, description, &openInputs, &openOutputs, nil),
                       "avfilter_graph_parse_ptr", describing: description, source: source)
    }

    /// `check` with the graph or filter being set up in the message, since
    /// libav's code alone ("Invalid argument") does not say what was wrong.
    private static func checkSetUp(_ code: Int32, _ call: String, describing description: String, source: String) throws(FFmpegError) {
        guard code < 0 else { return }
        throw FFmpegError(code: code, call: call, message: "\(FFmpegError.describe(code)) (\(description))", source: source)
    }
}
