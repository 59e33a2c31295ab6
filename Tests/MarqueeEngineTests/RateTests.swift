import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// Must-show 4: at 0.5x and 2x, video and audio last 1/rate as long, and the
/// audio keeps its pitch.
@Suite struct RateTests {
    @Test(arguments: [0.5, 2.0])
    func presentedDurationAndAudioLengthFollowTheRate(_ rate: Double) async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 4, fps: 25))
        let run = try Run([path], untimed: true, wav: true)
        try await run.playToEnd(rate: rate)

        let frames = run.video.frames
        #expect(frames.map(\.index) == (0..<100).map(Optional.some), "every frame once, in order")
        let shown = (frames.last!.display - frames.first!.display).secondsDouble + 0.04 / rate
        #expect(abs(shown - 4 / rate) / (4 / rate) < 0.01, "video lasted \(shown) s at \(rate)x")

        let samples = try wavSamples(try #require(run.audioPath))
        let seconds = Double(samples.count / 2) / 48000
        #expect(abs(seconds - 4 / rate) / (4 / rate) < 0.01, "audio lasted \(seconds) s at \(rate)x")

        // Pitch kept: the 440 Hz bed stays at 440 Hz, not 220 or 880.
        let left = stride(from: 0, to: samples.count, by: 2).map { Double(samples[$0]) }
        let middle = Array(left[left.count / 4..<left.count / 4 + 24000])
        let at440 = goertzel(middle, frequency: 440), at220 = goertzel(middle, frequency: 220), at880 = goertzel(middle, frequency: 880)
        #expect(at440 > 10 * at220 && at440 > 10 * at880, "440: \(at440) 220: \(at220) 880: \(at880)")
    }
}

/// Power of one frequency in 48 kHz samples.
func goertzel(_ samples: [Double], frequency: Double) -> Double {
    let coefficient = 2 * cos(2 * Double.pi * frequency / 48000)
    var previous = 0.0, beforePrevious = 0.0
    for sample in samples {
        let current = sample + coefficient * previous - beforePrevious
        beforePrevious = previous
        previous = current
    }
    return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
}
