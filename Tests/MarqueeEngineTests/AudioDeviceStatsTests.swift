import Marquee
import MarqueeCore
import MarqueeTestSupport
import Synchronization
import Testing

/// A simulated sound card whose writer misbehaves once, one second in: it
/// either stalls for `stall` (the device runs dry) or fails the write.
final class MisbehavingAudioOutput: AudioOutput, Sendable {
    enum Fault { case stall(Duration), writeError }

    let device: NullAudioOutput
    private let clock: any HostClock
    private let fault: Fault
    private let done = Mutex(false)

    init(format: AudioFormat, clock: any HostClock, fault: Fault) {
        device = NullAudioOutput(format: format, clock: clock)
        self.clock = clock
        self.fault = fault
    }

    struct DeviceGone: Error {}

    func write(_ buffer: AudioBuffer) throws {
        let due = device.framesWritten >= format.sampleRate && done.withLock { done in
            defer { done = true }
            return !done
        }
        if due {
            switch fault {
            case .stall(let duration): clock.sleep(until: clock.now() + duration)
            case .writeError: throw DeviceGone()
            }
        }
        try device.write(buffer)
    }

    var format: AudioFormat { device.format }
    func delay() -> (delay: Duration, at: HostTime) { device.delay() }
    func pause() { device.pause() }
    func resume() { device.resume() }
    func discard() { device.discard() }
    func drain() throws { try device.drain() }
    var underruns: Int { device.underruns }
}

/// The player's stats tell a device that ran dry (heard) from a write that
/// failed (a buffer the clock ran on without).
@Suite struct AudioDeviceStatsTests {
    @Test func aStalledWriterIsCountedAsTheDevicesUnderrun() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: true) { format, clock in
            MisbehavingAudioOutput(format: format, clock: clock, fault: .stall(.milliseconds(300)))
        }
        try await run.playToEnd()
        let stats = run.player.stats.snapshot
        #expect(stats.underruns == 1)
        #expect(stats.audioWriteErrors == 0)
    }

    @Test func aFailedWriteIsAWriteErrorNotAnUnderrun() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: true) { format, clock in
            MisbehavingAudioOutput(format: format, clock: clock, fault: .writeError)
        }
        try await run.playToEnd()
        let stats = run.player.stats.snapshot
        #expect(stats.audioWriteErrors == 1)
        #expect(stats.underruns == 0)
        #expect(run.video.frames.count == 50, "the picture went on")
    }
}
