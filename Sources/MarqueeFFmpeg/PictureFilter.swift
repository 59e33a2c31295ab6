import CFFmpeg
import MarqueeCore

/// Puts an item's decoded pictures through libavfilter where they need it
/// (`PictureFilters`): bwdif where they are interlaced, zscale and tonemap
/// where they are HDR or wide-gamut. Pictures that need nothing pass as
/// they are, and no graph is built for them.
///
/// What comes out is in presentation order with its own pts: bwdif at field
/// rate makes two pictures of an interlaced frame, the second half a frame
/// later, each lasting half the frame. Each keeps the orientation and pixel
/// aspect of the frame it came from, and is tagged with the colour the
/// graph wrote and the filters applied.
///
/// Not thread-safe: the source thread owns it.
final class PictureFilter {
    let deinterlacing: Deinterlacing
    /// The stream's time base, which decoded frames' pts are counted in.
    private let timeBase: AVRational
    private let source: String
    private var running: (graph: FilterGraph, setup: Setup)?
    /// What the frames inside the graph said about themselves, oldest first:
    /// a picture that comes out belongs to the latest one at or before its time.
    private var inside: [Entry] = []
    /// The last frame's pts, to give a frame without a duration one.
    private var previousPts: MediaTime?

    /// What a graph is built for.
    private struct Setup: Equatable {
        var input: FilterGraph.Input
        var filters: PictureFilters
        /// The colour the range conversion reads; nil without one.
        var colour: ColourDescription?

        /// Whether a graph set up as `self` takes a frame that wants `other`:
        /// the same input and conversion, and bwdif where it deinterlaces (a
        /// progressive frame passes through a deinterlacing graph untouched).
        func takes(_ other: Setup) -> Bool {
            input == other.input && colour == other.colour && filters.rangeConversion == other.filters.rangeConversion
                && (filters.deinterlace == other.filters.deinterlace || other.filters.deinterlace == nil)
        }
    }

    private struct Entry {
        var pts: MediaTime
        var duration: MediaTime
        var orientation: Orientation
        var sampleAspect: Double
        var fieldOrder: FieldOrder
        var deinterlaced: Bool
    }

    init(deinterlacing: Deinterlacing, timeBase: AVRational, source: String) {
        self.deinterlacing = deinterlacing
        self.timeBase = timeBase
        self.source = source
    }

    /// What `frame` needs.
    func filters(for frame: VideoFrame) -> PictureFilters {
        PictureFilters(colour: frame.colour, fieldOrder: frame.fieldOrder, deinterlacing: deinterlacing)
    }

    /// The pictures to show for decoded `frames`, in order; bwdif keeps one
    /// frame back until the next comes (or `drain`).
    /// - Throws: `FFmpegError` naming the libavfilter call that failed.
    func filter(_ frames: [VideoFrame]) throws(FFmpegError) -> [VideoFrame] {
        var shown: [VideoFrame] = []
        for frame in frames { try filter(frame, into: &shown) }
        return shown
    }

    /// At the end of the stream: the pictures the graph still holds.
    func drain() throws(FFmpegError) -> [VideoFrame] {
        var shown: [VideoFrame] = []
        try finishGraph(into: &shown)
        return shown
    }

    /// Forgets what the graph holds, e.g. after a seek.
    func reset() {
        running = nil
        inside.removeAll()
        previousPts = nil
    }

    private func filter(_ frame: VideoFrame, into shown: inout [VideoFrame]) throws(FFmpegError) {
        defer { previousPts = frame.pts }
        let wanted = filters(for: frame)
        // A hardware surface has no AVFrame here to filter; the fallback decoder never lets one that needs it through.
        guard let storage = frame.storage as? AVFrameStorage else { return shown.append(frame) }
        let setup = Setup(input: FilterGraph.Input(width: frame.width, height: frame.height,
                                                   format: AVPixelFormat(storage.frame.pointee.format), timeBase: timeBase),
                          filters: wanted, colour: wanted.rangeConversion == nil ? nil : frame.colour)
        if let running, !running.setup.takes(setup) { try finishGraph(into: &shown) }
        if running == nil {
            guard let description = wanted.graph(for: frame.colour, width: frame.width, height: frame.height) else {
                return shown.append(frame)
            }
            running = (try FilterGraph(description, input: setup.input, source: source), setup)
        }
        try push(frame, storage, deinterlaced: wanted.deinterlace != nil)
        try pullAll(into: &shown)
    }

    private func push(_ frame: VideoFrame, _ storage: AVFrameStorage, deinterlaced: Bool) throws(FFmpegError) {
        guard let running else { return }
        guard let copy = av_frame_clone(storage.frame) else { throw .outOfMemory("av_frame_clone", source: source) }
        var owned: UnsafeMutablePointer<AVFrame>? = copy
        defer { av_frame_free(&owned) }
        copy.pointee.pts = frame.pts.value(inTimeBase: timeBase.num, timeBase.den, rounding: .nearestHalfAwayFromZero) ?? noTimestamp
        // bwdif (deint=interlaced, parity=auto) reads both flags: which frames to deinterlace, and in which order.
        copy.pointee.interlaced_frame = deinterlaced ? 1 : 0
        if let order = deinterlacing.fieldOrder(deinterlacing: frame.fieldOrder) {
            copy.pointee.top_field_first = order == .topFieldFirst ? 1 : 0
        }
        try running.graph.push(copy)
        inside.append(Entry(pts: frame.pts, duration: duration(of: frame), orientation: frame.orientation,
                            sampleAspect: frame.sampleAspect, fieldOrder: frame.fieldOrder, deinterlaced: deinterlaced))
        // bwdif holds one frame back; more entries than this means pictures came out without a time to match them by.
        if inside.count > Self.entriesKept { inside.removeFirst(inside.count - Self.entriesKept) }
    }

    private static let entriesKept = 4

    /// The frame's own duration, else the time since the previous frame; zero when neither is known.
    private func duration(of frame: VideoFrame) -> MediaTime {
        if frame.duration.isNumeric, frame.duration > .zero { return frame.duration }
        if let previousPts, previousPts.isNumeric, frame.pts.isNumeric, frame.pts > previousPts { return frame.pts - previousPts }
        return .zero
    }

    private func pullAll(into shown: inout [VideoFrame]) throws(FFmpegError) {
        guard let running else { return }
        while let picture = try running.graph.pull() {
            shown.append(tag(picture, from: running))
        }
    }

    private func finishGraph(into shown: inout [VideoFrame]) throws(FFmpegError) {
        guard let running else { return }
        try running.graph.end()
        try pullAll(into: &shown)
        self.running = nil
        inside.removeAll()
    }

    /// A filtered picture as a `VideoFrame`, with what the frame it came from said.
    private func tag(_ picture: AVFrameStorage, from running: (graph: FilterGraph, setup: Setup)) -> VideoFrame {
        let pts = MediaTime(libav: picture.frame.pointee.pts, timeBase: running.graph.outputTimeBase)
        var latest = 0
        while pts.isValid, latest + 1 < inside.count, inside[latest + 1].pts <= pts { latest += 1 }
        inside.removeFirst(latest)
        let entry = inside.first
        let deinterlaced = entry?.deinterlaced ?? false
        let halves = deinterlaced && deinterlacing.rate == .field
        let duration = entry.map { halves ? $0.duration.multiplied(by: 1, dividedBy: 2) : $0.duration } ?? .zero
        var frame = picture.videoFrame(pts: pts, duration: duration)
        frame.orientation = entry?.orientation ?? .upright
        frame.sampleAspect = entry?.sampleAspect ?? 1
        frame.colour = PictureTags.colour(of: picture.frame.pointee)
        frame.fieldOrder = deinterlaced ? .progressive : entry?.fieldOrder ?? .progressive
        frame.filters = PictureFilters(deinterlace: deinterlaced ? deinterlacing.rate : nil,
                                       rangeConversion: running.setup.filters.rangeConversion)
        return frame
    }
}
