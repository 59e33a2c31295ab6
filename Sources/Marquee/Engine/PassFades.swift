import MarqueeFFmpeg

/// Where one pass of an item fades (`ItemTransition.fade`), in the stream
/// time of its frames (after the loop offset): up from the colour at its
/// start where it follows another item, down to it at its end where another
/// item follows. The source stage sets each frame's `visibility` from it.
struct PassFades {
    /// The pass's first picture starts here; nil: no fade in.
    var inFrom: MediaTime?
    /// The pass's last picture ends here; nil: no fade out.
    var outTo: MediaTime?
    /// Seconds each fade lasts.
    var half: Double

    /// Steps per second a still picture fades in: each is a blended copy
    /// presented as a frame, 30 a second looks smooth on a 60 Hz screen at
    /// half the work of one a refresh.
    static let stillStepsPerSecond = 30.0

    /// How much of a picture at `pts` lasting `duration` seconds shows.
    /// Measured from the picture's start going up and to its end going down,
    /// so the first picture of a fade in and the last of a fade out are all
    /// colour and every one between shows more (or less) than the one before.
    func visibility(pts: MediaTime, duration: Double) -> Double {
        var level = 1.0
        if let inFrom { level = min(level, (pts - inFrom).seconds / half) }
        if let outTo { level = min(level, ((outTo - pts).seconds - duration) / half) }
        return max(level, 0)
    }

    /// The pieces (offset from its start, seconds up) a still picture lasting
    /// `duration` is shown in: one step after another while it fades, one
    /// piece held in between, so nothing is done while it is simply up.
    func stillPieces(duration: Double) -> [(offset: Double, duration: Double)] {
        let steps = max(1, Int((half * Self.stillStepsPerSecond).rounded(.up)))
        let step = half / Double(steps)
        var bounds = [0.0]
        if inFrom != nil { bounds += (1...steps).map { Double($0) * step } }
        if outTo != nil { bounds += (0..<steps).map { duration - half + Double($0) * step } }
        bounds.append(duration)
        // A picture shorter than both fades has no held piece: the two meet.
        let distinct = bounds.sorted().reduce(into: [Double]()) { kept, bound in
            if let last = kept.last, bound - last < 1e-6 { return }
            kept.append(bound)
        }
        return zip(distinct, distinct.dropFirst()).map { (offset: $0, duration: $1 - $0) }
    }
}
