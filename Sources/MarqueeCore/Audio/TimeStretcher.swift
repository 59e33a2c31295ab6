/// Changes the speed of audio without changing its pitch (WSOLA: windowed
/// overlap-add of input segments, each placed where it best continues the
/// previous one), so 0.5x and 2x playback sound like the same voice.
///
/// Not thread-safe: the audio writer owns it.
public struct TimeStretcher {
    public let format: AudioFormat
    /// Output hop in sample frames (half a 40 ms window).
    private let hop: Int
    /// How far around the ideal position a segment may move to fit, in frames.
    private let searchRadius: Int
    private let window: [Float]
    /// Interleaved input not yet consumed; `inputStart` is the absolute frame index of its first frame.
    private var input: [Float] = []
    private var inputStart = 0
    /// Absolute input frame where the next segment ideally starts.
    private var ideal = 0.0
    /// Where the previous segment started (absolute), nil before the first.
    private var previousStart: Int?
    private var pts = MediaTime.invalid
    /// Frames fed and produced since the last reset, so `flush` can make the
    /// total output exactly input / rate.
    private var framesIn = 0
    private var framesOut = 0

    public init(format: AudioFormat) {
        self.format = format
        hop = max(format.sampleRate / 50, 16)
        searchRadius = max(format.sampleRate / 200, 4)
        let length = hop * 2
        window = (0..<length).map { index in
            let phase = Double(index) / Double(length)
            return Float(0.5 - 0.5 * cos2pi(phase))
        }
    }

    public mutating func reset() {
        pending.removeAll()
        input.removeAll()
        inputStart = 0
        ideal = 0
        previousStart = nil
        pts = .invalid
        framesIn = 0
        framesOut = 0
    }

    /// Input time held back inside the stretcher, in input seconds.
    public func latency(rate: Double) -> Double {
        guard rate != 1 else { return 0 }
        let held = Double(inputStart + input.count / format.channels) - ideal
        return max(held, 0) / Double(format.sampleRate)
    }

    /// Feeds `buffer` and returns the stretched audio ready so far (rate 2 =
    /// half as many frames). At rate 1 the buffer passes through untouched.
    public mutating func process(_ buffer: AudioBuffer, rate: Double) -> AudioBuffer {
        guard rate != 1 else { return buffer }
        if !pts.isValid { pts = buffer.pts }
        input += buffer.floatSamples()
        framesIn += buffer.frameCount
        let channels = format.channels
        var output: [Float] = []
        let analysis = Double(hop) * rate
        while true {
            let idealStart = Int(ideal.rounded())
            let needed = idealStart + searchRadius + hop * 2
            guard needed <= inputStart + input.count / channels else { break }
            let start = bestStart(near: idealStart)
            appendSegment(at: start, to: &output)
            previousStart = start
            ideal += analysis
        }
        trimConsumed()
        let result = AudioBuffer(pts: pts, format: format, floatSamples: output)
        framesOut += result.frameCount
        pts = pts + result.duration
        return result
    }

    /// The input still held back, stretched (the end of the stream): nil when empty.
    public mutating func flush(rate: Double) -> AudioBuffer? {
        let end = inputStart + input.count / format.channels
        guard pts.isValid, Double(end) > ideal else { return nil }
        input += [Float](repeating: 0, count: (searchRadius + hop * 2) * format.channels)
        var output: [Float] = []
        while ideal < Double(end) {
            let start = bestStart(near: Int(ideal.rounded()))
            appendSegment(at: start, to: &output)
            previousStart = start
            ideal += Double(hop) * rate
        }
        output += pending
        let owed = max(0, Int((Double(framesIn) / rate).rounded()) - framesOut) * format.channels
        output = Array(output.prefix(owed)) + [Float](repeating: 0, count: max(0, owed - output.count))
        let result = AudioBuffer(pts: pts, format: format, floatSamples: output)
        reset()
        return result
    }

    /// The start in [ideal - radius, ideal + radius] whose first half best
    /// matches what naturally followed the previous segment.
    private func bestStart(near idealStart: Int) -> Int {
        guard let previous = previousStart else { return idealStart }
        let natural = previous + hop
        var best = idealStart
        var bestScore = -Float.infinity
        let low = max(idealStart - searchRadius, inputStart)
        for candidate in stride(from: low, through: idealStart + searchRadius, by: 2) {
            var score: Float = 0
            var index = 0
            while index < hop {
                score += mono(at: candidate + index) * mono(at: natural + index)
                index += 8
            }
            if score > bestScore {
                bestScore = score
                best = candidate
            }
        }
        return best
    }

    /// Overlap-adds the windowed segment at `start`; emits the hop that is complete.
    private mutating func appendSegment(at start: Int, to output: inout [Float]) {
        let channels = format.channels
        if pending.isEmpty { pending = [Float](repeating: 0, count: hop * channels) }
        for frame in 0..<hop {
            for channel in 0..<channels {
                let head = sample(at: start + frame, channel) * window[frame]
                output.append(pending[frame * channels + channel] + head)
            }
        }
        for frame in 0..<hop {
            for channel in 0..<channels {
                pending[frame * channels + channel] = sample(at: start + hop + frame, channel) * window[hop + frame]
            }
        }
    }

    /// The windowed second half of the last segment, waiting for its overlap.
    private var pending: [Float] = []

    private func sample(at frame: Int, _ channel: Int) -> Float {
        let index = (frame - inputStart) * format.channels + channel
        return index >= 0 && index < input.count ? input[index] : 0
    }

    private func mono(at frame: Int) -> Float {
        var sum: Float = 0
        for channel in 0..<format.channels { sum += sample(at: frame, channel) }
        return sum
    }

    private mutating func trimConsumed() {
        let keepFrom = min(Int(ideal) - searchRadius, (previousStart ?? Int(ideal)) + hop) - 1
        let drop = keepFrom - inputStart
        guard drop > 4096 else { return }
        input.removeFirst(drop * format.channels)
        inputStart += drop
    }
}

/// cos(2πx) without Foundation.
private func cos2pi(_ x: Double) -> Double {
    // Range-reduce to [-0.5, 0.5] and use a Taylor series: accurate to ~1e-12
    // there, far below what a 16-bit window needs.
    var t = x - (x + 0.5).rounded(.down)
    t *= 2 * Double.pi
    let t2 = t * t
    var term = 1.0, sum = 1.0
    for n in stride(from: 2, through: 30, by: 2) {
        term *= -t2 / Double((n - 1) * n)
        sum += term
    }
    return sum
}
