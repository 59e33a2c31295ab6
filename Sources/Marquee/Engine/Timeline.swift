import MarqueeFFmpeg

/// One pass of one item on the engine's continuous timeline. Loop passes and
/// playlist items follow each other on that timeline without a reset, which is
/// what lets the presenter and the audio writer run across a seam as if it
/// were any other frame.
final class Segment: Sendable, CustomStringConvertible {
    /// Increases with every new segment.
    let id: Int
    let item: PlayerItem
    /// The loop pass of `item` this segment is (0 for the first).
    let pass: Int
    /// Timeline seconds at which item time `itemStart` plays.
    let timelineStart: Double
    /// Item time (0 = the item's beginning) this segment starts at: 0, or a seek target.
    let itemStart: MediaTime
    /// The stream timestamp (after loop offsets) that corresponds to `itemStart`.
    let ptsOrigin: MediaTime
    let hasVideo: Bool
    let hasAudio: Bool
    /// Played backwards (a negative rate): the timeline runs on as item
    /// time runs back from `itemStart`, and there is no sound.
    let isReversed: Bool

    init(id: Int, item: PlayerItem, pass: Int, timelineStart: Double, itemStart: MediaTime,
         ptsOrigin: MediaTime, hasVideo: Bool, hasAudio: Bool, isReversed: Bool = false) {
        self.id = id
        self.item = item
        self.pass = pass
        self.timelineStart = timelineStart
        self.itemStart = itemStart
        self.ptsOrigin = ptsOrigin
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
        self.isReversed = isReversed
    }

    func itemTime(ofPts pts: MediaTime) -> MediaTime { itemStart + (pts - ptsOrigin) }

    func timeline(ofPts pts: MediaTime) -> Double { timelineStart + (pts - ptsOrigin).seconds }

    /// Where in its item (seconds, played forwards) `timeline` is: a still
    /// picture is handed on in pieces that share its picture's time, each
    /// later, so this is counted from the segment's start, not from a pts.
    func itemSeconds(atTimeline timeline: Double) -> Double { itemStart.seconds + (timeline - timelineStart) }

    /// Where a frame shown from `pts` for `duration` seconds of item time
    /// starts on the timeline: played backwards, its end comes first.
    func timeline(ofFrameAt pts: MediaTime, duration: Double) -> Double {
        isReversed ? timelineStart + (ptsOrigin - pts).seconds - duration : timeline(ofPts: pts)
    }

    var description: String {
        "segment \(id) (\(item), pass \(pass), \(isReversed ? "back " : "")from \(itemStart.seconds) s)"
    }
}

/// A decoded picture placed on the timeline.
struct TimelineFrame: Sendable {
    var frame: VideoFrame
    let segment: Segment
    let itemTime: MediaTime
    let timeline: Double
    /// Seconds the frame is meant to stay up at rate 1.
    let duration: Double
    let serial: Int
    /// How much of the picture shows: below 1 inside a fade
    /// (`ItemTransition.fade`), where the rest is the fade's colour. The
    /// presenter blends it, so the queue holds the decoded frame as it is.
    var visibility = 1.0
}

/// Decoded PCM placed on the timeline.
struct TimelineAudio: Sendable {
    var buffer: AudioBuffer
    let segment: Segment
    var timeline: Double
    let serial: Int
    /// Seconds of silence this entry stands for, its buffer empty: a pause
    /// between items, or a still picture's time up. An output that stops
    /// for silence is stopped that long; others are fed silence a piece at
    /// a time (so a picture up for hours holds no hours of zeros).
    var silence: Double?
}

/// Decoded media that knows its seek serial.
protocol SerialStamped: Sendable {
    var serial: Int { get }
}

extension TimelineFrame: SerialStamped {}
extension TimelineAudio: SerialStamped {}

/// What flows through a stage queue: decoded media, or the end of it.
enum StageEntry<Payload: SerialStamped>: Sendable {
    case media(Payload)
    /// Nothing follows on this serial: playback reached its end, at
    /// `timeline` seconds where the last pass's length is known (the longest
    /// of its streams: the shorter is padded to it).
    case end(serial: Int, timeline: Double?)

    var serial: Int {
        switch self {
        case .media(let payload): payload.serial
        case .end(let serial, _): serial
        }
    }
}
