import Foundation
import Marquee
import MarqueeTestSupport
import Synchronization
import Testing
@_spi(Testing) @testable import MarqueeALSA

/// Underrun, suspend, unplug and pause without hardware support, on a
/// simulated PCM driven by a virtual clock.
@Suite struct ALSARecoveryTests {
    let clock = VirtualClock(start: HostTime(nanoseconds: 1_000_000_000))
    let log = EventLog()

    func output(_ pcm: SimulatedPCM, _ configuration: ALSAAudioOutput.Configuration = .init(device: "sim")) throws -> ALSAAudioOutput {
        try ALSAAudioOutput(configuration, clock: clock, onEvent: log.handler, opener: { _, _ in pcm }, requireDevice: true)
    }

    /// Bytes that differ frame to frame, so loss or repetition shows.
    func pattern(frames: Int, from first: Int, _ format: AudioFormat) -> AudioBuffer {
        var bytes = [UInt8]()
        bytes.reserveCapacity(frames * format.bytesPerFrame)
        for frame in first..<first + frames {
            let value = UInt32(truncatingIfNeeded: frame)
            for _ in 0..<format.channels { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
        }
        return AudioBuffer(pts: .zero, format: format, bytes: bytes)
    }

    @Test func anUnderrunIsPreparedAwayAndPlaybackGoesOn() throws {
        let pcm = SimulatedPCM(clock: clock)
        let output = try output(pcm)
        for _ in 0..<10 { try output.write(silence(20, output.format)) }
        #expect(pcm.currentState == .running)
        // The writer stalls 200 ms: the 100 ms buffer runs dry.
        clock.sleep(until: clock.now() + .milliseconds(200))
        #expect(pcm.currentState == .xrun)
        #expect(output.delay().delay == .zero, "an underrun device has played everything")
        try output.write(silence(20, output.format))
        #expect(output.statistics.underruns == 1)
        #expect(log.recoveries.map(\.code) == [-EPIPE])
        #expect(pcm.calls.contains("snd_pcm_prepare"))
        #expect(pcm.currentState == .prepared, "restarts when the buffer is full again")
        #expect(output.delay().delay == .milliseconds(20), "the clock reads the new audio at once")
        for _ in 0..<10 { try output.write(silence(20, output.format)) }
        #expect(pcm.currentState == .running)
        #expect(output.statistics.underruns == 1)
        #expect(output.isConnected)
    }

    @Test func theTestStallHookForcesExactlyOneUnderrun() throws {
        let pcm = SimulatedPCM(clock: clock)
        let stall = ALSAAudioOutput.TestStall(after: .milliseconds(500), duration: .milliseconds(200))
        var configuration = ALSAAudioOutput.Configuration(device: "sim")
        configuration.testStall = stall
        let output = try output(pcm, configuration)
        for _ in 0..<50 { try output.write(silence(20, output.format)) }
        let statistics = output.statistics
        #expect(statistics.underruns == 1)
        #expect(statistics.testStalls.count == 1)
        let record = try #require(statistics.testStalls.first)
        #expect(abs(record.endSeconds - record.startSeconds - 0.2) < 1e-9)
    }

    @Test func aSuspendIsResumedAfterTheDeviceWakes() throws {
        let pcm = SimulatedPCM(clock: clock)
        pcm.resumeAnswers = [-EAGAIN, -EAGAIN, 0]
        let output = try output(pcm)
        for _ in 0..<10 { try output.write(silence(20, output.format)) }
        pcm.suspend()
        let before = clock.now()
        try output.write(silence(20, output.format))
        #expect(pcm.calls.filter { $0 == "snd_pcm_resume" }.count == 3)
        #expect(clock.now() - before >= .milliseconds(20), "waited while the device woke")
        #expect(output.statistics.suspends == 1)
        #expect(log.recoveries.map(\.code) == [-ESTRPIPE])
        #expect(output.isConnected)
    }

    @Test func aDeviceThatCannotResumeIsPrepared() throws {
        let pcm = SimulatedPCM(clock: clock)
        pcm.resumeAnswers = [-ENOSYS]
        let output = try output(pcm)
        for _ in 0..<10 { try output.write(silence(20, output.format)) }
        pcm.suspend()
        try output.write(silence(20, output.format))
        #expect(output.statistics.suspends == 1)
        #expect(pcm.calls.suffix(4).contains("snd_pcm_prepare"))
        #expect(pcm.currentState == .prepared)
    }

    @Test func aWriteToAStoppedDeviceIsPreparedAway() throws {
        let pcm = SimulatedPCM(clock: clock)
        let output = try output(pcm)
        for _ in 0..<10 { try output.write(silence(20, output.format)) }
        pcm.stop()
        try output.write(silence(20, output.format))
        #expect(log.recoveries.map(\.code) == [-EBADFD])
        #expect(log.all.last?.description == "audio device sim: recovered from File descriptor in bad state (snd_pcm_writei)")
        #expect(output.isConnected)
        #expect(output.statistics.underruns == 0)
        #expect(output.delay().delay == .milliseconds(20))
    }

    @Test func unpluggingSwitchesToTheStandInWithoutAJumpAndRetries() throws {
        let pcm = SimulatedPCM(clock: clock)
        let configuration = ALSAAudioOutput.Configuration(device: "sim", retryInterval: .seconds(2))
        let opens = Mutex(0)
        let output = try ALSAAudioOutput(configuration, clock: clock, onEvent: log.handler, opener: { name, _ throws(ALSAError) in
            let count = opens.withLock { $0 += 1; return $0 }
            if count == 1 { return pcm }
            throw ALSAError(call: "snd_pcm_open", device: name, code: -ENOENT)
        }, requireDevice: true)
        for _ in 0..<10 { try output.write(silence(20, output.format)) }
        let (delay, at) = output.delay()
        let position = 0.2 - delay.secondsDouble   // timeline heard at `at`
        pcm.unplug()
        try output.write(silence(20, output.format))
        #expect(!output.isConnected)
        #expect(log.unavailable.map(\.code) == [-ENODEV])
        #expect(log.unavailable.first?.device == "sim")
        // The stand-in took over with the delay the device last reported.
        let (newDelay, newAt) = output.delay()
        let newPosition = 0.22 - newDelay.secondsDouble
        #expect(abs((newPosition - position) - (newAt - at).secondsDouble) < 0.0011, "audio clock jumped at the unplug")
        // It plays on in real time and retries every 2 s.
        let start = clock.now()
        for _ in 0..<250 { try output.write(silence(20, output.format)) }
        #expect(clock.now() - start == .milliseconds(5_000))
        #expect(opens.withLock { $0 } == 3)
        #expect(log.unavailable.count == 1)
    }

    /// Without hardware pause, pausing drops the device buffer and resuming
    /// writes the unheard part again: what is heard is exactly what was written.
    @Test func pausingWithoutHardwarePauseLosesAndRepeatsNothing() throws {
        let pcm = SimulatedPCM(canPause: false, clock: clock)
        let output = try output(pcm)
        var next = 0
        func write(_ frames: Int) throws {
            try output.write(pattern(frames: frames, from: next, output.format))
            next += frames
        }
        for _ in 0..<15 { try write(960) }
        clock.sleep(until: clock.now() + .milliseconds(30))
        let delay = output.delay().delay
        output.pause()
        #expect(pcm.calls.contains("snd_pcm_drop"))
        #expect(!pcm.calls.contains("snd_pcm_pause"))
        #expect(output.delay().delay == delay, "the paused delay is the audio kept for replay")
        clock.sleep(until: clock.now() + .milliseconds(500))
        #expect(output.delay().delay == delay)
        output.resume()
        for _ in 0..<10 { try write(960) }
        try output.drain()
        let heard = pcm.heard
        let expected = (0..<next).flatMap { frame in
            withUnsafeBytes(of: UInt16(truncatingIfNeeded: frame).littleEndian) { Array($0) + Array($0) }
        }
        #expect(heard.count == expected.count, "heard \(heard.count / 4) frames of \(next)")
        #expect(heard == expected, "audio lost or repeated across the pause")
        #expect(output.statistics.underruns == 0)
    }

    @Test func hardwarePauseFreezesTheDevice() throws {
        let pcm = SimulatedPCM(clock: clock)
        let output = try output(pcm)
        for _ in 0..<10 { try output.write(silence(20, output.format)) }
        output.pause()
        #expect(pcm.currentState == .paused)
        let held = output.delay().delay
        clock.sleep(until: clock.now() + .seconds(1))
        #expect(output.delay().delay == held)
        output.resume()
        #expect(pcm.currentState == .running)
        clock.sleep(until: clock.now() + .milliseconds(10))
        #expect(output.delay().delay == held - .milliseconds(10))
    }

    @Test func recentAudioKeepsTheNewestBytesInOrder() {
        var recent = RecentAudio(capacity: 8)
        [UInt8](0..<5).withUnsafeBytes { recent.append($0) }
        #expect(recent.last(3) == [2, 3, 4])
        [UInt8](5..<12).withUnsafeBytes { recent.append($0) }
        #expect(recent.last(8) == Array(4..<12))
        #expect(recent.last(20) == Array(4..<12))
        [UInt8](20..<40).withUnsafeBytes { recent.append($0) }
        #expect(recent.last(8) == Array(32..<40))
        recent.removeAll()
        #expect(recent.last(4).isEmpty)
    }
}
