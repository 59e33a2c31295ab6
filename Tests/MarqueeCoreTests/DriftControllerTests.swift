import MarqueeCore
import MarqueeTestSupport
import Testing

/// The controller against a model of a sound card that runs off by a fixed
/// drift, read every 20 ms with a jittery delay: the offset settles to a
/// fraction of a millisecond and the correction to the drift.
@Suite struct DriftControllerTests {
    struct Run {
        var worstAfterSettlingMs = 0.0
        var correctionPpm = 0.0
        var finalOffsetMs = 0.0
    }

    /// `seconds` of a device `driftPPM` fast, readings with up to `jitter` seconds of error.
    static func run(driftPPM: Double, seconds: Double, jitter: Double = 0.0002, seed: UInt64 = 7) -> Run {
        var controller = DriftController()
        var generator = SeededGenerator(seed: seed)
        var offset = 0.0, time = 0.0, result = Run()
        let step = 0.02
        while time < seconds {
            // Sound heard per second of wall: the device's pace over the ratio played at.
            offset += (1 - (1 + driftPPM / 1e6) / controller.ratio) * step
            time += step
            let reading = offset + generator.next(upTo: 2 * jitter) - jitter
            controller.update(offset: reading, at: HostTime(nanoseconds: Int64(time * 1e9)))
            if time > 30 { result.worstAfterSettlingMs = max(result.worstAfterSettlingMs, abs(offset) * 1000) }
        }
        result.correctionPpm = controller.learntDrift * 1e6
        result.finalOffsetMs = offset * 1000
        return result
    }

    @Test(arguments: [200.0, -200.0, 100.0, 0.0])
    func aDriftingDeviceSettlesOnTheSchedule(_ drift: Double) {
        let run = Self.run(driftPPM: drift, seconds: 600)
        #expect(run.worstAfterSettlingMs < 0.5, "worst \(run.worstAfterSettlingMs) ms after 30 s")
        // What it learnt is the drift (each reading's jitter moves only the proportional share).
        #expect(abs(run.correctionPpm - drift) < 10, "learnt \(run.correctionPpm) ppm for \(drift) ppm")
    }

    @Test func aDriftBeyondTheBoundIsNotChasedForever() {
        // 5000 ppm is no crystal: the correction stops at its bound and the offset grows for the caller to move.
        let run = Self.run(driftPPM: 5000, seconds: 60, jitter: 0)
        #expect(abs(run.correctionPpm - DriftController.maximumCorrection * 1e6) < 1e-6, "learnt \(run.correctionPpm) ppm")
        #expect(run.finalOffsetMs < -100, "offset \(run.finalOffsetMs) ms")
    }

    @Test func theIntegralDoesNotWindUpWhileClamped() {
        // Pinned at the bound for a minute, then the drift goes: the correction comes back within seconds.
        var controller = DriftController()
        for tick in 1...3000 { controller.update(offset: -0.2, at: HostTime(nanoseconds: Int64(tick) * 20_000_000)) }
        #expect(controller.correction == DriftController.maximumCorrection)
        var offset = 0.0, ticks = 0
        while controller.correction > 0.0001, ticks < 1000 {
            ticks += 1
            offset += (1 - 1 / controller.ratio) * 0.02
            controller.update(offset: offset, at: HostTime(nanoseconds: Int64(3000 + ticks) * 20_000_000))
        }
        #expect(ticks < 1000, "still correcting after 20 s")
        #expect(abs(offset) < 0.02, "overshot to \(offset * 1000) ms")
    }
}
