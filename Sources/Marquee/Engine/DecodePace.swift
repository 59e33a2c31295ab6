/// Whether the source keeps up: the time it spends making frames (reading,
/// decoding pictures and sound) against the time those frames are shown.
/// A decoder on slice threads alone that falls behind gets frame threads
/// (`ItemSource.useFrameThreads`); one that keeps up holds no picture more.
struct DecodePace {
    /// Frames judged together: about a second, so a keyframe's long decode
    /// among them is averaged with the frames that lean on it.
    static let window = 32
    /// Behind when making the frames takes more than this share of their
    /// time on screen: the source's thread shares the cores with the
    /// presenter, the sound and the rest of the machine.
    static let budget = 0.5

    private var work = 0.0
    private var shown = 0.0
    private var frames = 0
    /// The first window after a start is not judged: it holds the opening,
    /// the queues filling from empty as fast as the source can and the first
    /// picture decoded ahead beside it (`PictureAhead`), not the pace of
    /// playing on. (4K HEVC here: a third of starts judged behind on it,
    /// none after it.)
    private var judged = false

    /// A start's pace: its first window is not judged.
    init() {}

    private init(judged: Bool) {
        self.judged = judged
    }

    /// Adds a step of the source: `seconds` of work that made `count` frames
    /// to be shown for `shownFor` seconds in all (at the rate they will be
    /// shown). A step that made none adds its work to the next frame's.
    /// - Returns: true when a full window, not the first, took more than
    ///   the budget; the window then starts over.
    mutating func add(work seconds: Double, frames count: Int, shownFor: Double) -> Bool {
        work += seconds
        shown += shownFor
        frames += count
        guard frames >= Self.window else { return false }
        defer { self = DecodePace(judged: true) }
        return judged && work > shown * Self.budget
    }
}
