import Foundation
import Marquee
import MarqueeTestSupport
import Testing
@testable import MarqueeALSA

/// One output under the contract, with the clock it runs on and what to expect of its timing.
struct ContractRig {
    let name: String
    let output: any AudioOutput
    let clock: any HostClock
    /// The device buffer: the most `delay` may report.
    let buffer: Duration
    /// Whether the output plays in (real or simulated) time; libasound's
    /// `null` PCM takes everything at once and reports no delay.
    let paced: Bool
    /// Slack on every timing figure: a period of the device, plus scheduling
    /// on a real one.
    let tolerance: Duration
}

/// The `AudioOutput` contract, the same assertions for every output:
/// the delay is non-negative and bounded by the buffer; writes block for
/// roughly real time; pause holds the delay; discard empties it; drain ends
/// with the delay about 0, having taken about the delay it started with.
enum AudioOutputContract {
    /// Returns how writing 500 ms went, for a real device to print.
    @discardableResult
    static func check(_ rig: ContractRig) throws -> String {
        let output = rig.output
        let format = output.format
        let chunk = AudioBuffer(pts: .zero, format: format,
                                bytes: [UInt8](repeating: 0, count: format.sampleRate / 50 * format.bytesPerFrame))  // 20 ms
        let slack = rig.tolerance
        func ms(_ d: Duration) -> Double { d.secondsDouble * 1000 }

        let initial = output.delay().delay
        #expect(initial >= .zero && initial <= rig.buffer, "\(rig.name): delay \(ms(initial)) ms before any write")

        // Writes block for roughly real time. Once the buffer is full, each
        // write waits while the device plays: between two writes the time
        // taken equals what was written less the growth of the queue. The
        // first writes are left out: they fill the buffer, and a device takes
        // a while to start (a period or more through dmix, in the emulator).
        let filled = Int((rig.buffer.secondsDouble / 0.020).rounded(.up)) + 1
        var mark = (at: rig.clock.now(), queued: Duration.zero)
        var queued = Duration.zero
        for index in 1...25 {
            try output.write(chunk)
            queued = output.delay().delay
            #expect(queued >= .zero, "\(rig.name): negative delay \(ms(queued)) ms")
            #expect(queued <= rig.buffer + slack, "\(rig.name): delay \(ms(queued)) ms beyond the \(ms(rig.buffer)) ms buffer")
            if index == filled { mark = (rig.clock.now(), queued) }
        }
        let elapsed = rig.clock.now() - mark.at
        let expected = .milliseconds(20 * (25 - filled)) + mark.queued - queued
        if rig.paced {
            #expect(elapsed >= expected - slack && elapsed <= expected + slack,
                    "\(rig.name): the last \(25 - filled) writes took \(ms(elapsed)) ms, expected about \(ms(expected)) ms")
        }

        // Pause holds the delay.
        output.pause()
        let held = output.delay().delay
        rig.clock.sleep(until: rig.clock.now() + .milliseconds(200))
        let later = output.delay().delay
        #expect(abs(ms(later) - ms(held)) <= ms(slack), "\(rig.name): paused delay went from \(ms(held)) to \(ms(later)) ms")
        if rig.paced { #expect(held > .zero, "\(rig.name): nothing buffered when paused") }
        output.resume()

        // Discard empties it.
        try output.write(chunk)
        output.discard()
        let discarded = output.delay().delay
        #expect(discarded <= slack, "\(rig.name): delay \(ms(discarded)) ms after discard")

        // Drain ends with the delay about 0, after about the delay it began with.
        for _ in 0..<10 { try output.write(chunk) }
        let before = output.delay().delay
        let drainStart = rig.clock.now()
        try output.drain()
        let draining = rig.clock.now() - drainStart
        let after = output.delay().delay
        #expect(after <= slack, "\(rig.name): delay \(ms(after)) ms after drain")
        if rig.paced {
            #expect(before > .zero, "\(rig.name): nothing buffered before drain")
            #expect(abs(ms(draining) - ms(before)) <= ms(slack) * 2,
                    "\(rig.name): drain took \(ms(draining)) ms for \(ms(before)) ms of delay")
        }
        // Usable again after the drain.
        try output.write(chunk)
        output.discard()
        return "the last \(25 - filled) writes took \(ms(elapsed)) ms for \(ms(expected)) ms played"
    }
}

@Suite struct AudioOutputContractTests {
    static let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16)

    @Test func nullAudioOutput() throws {
        let clock = VirtualClock(start: HostTime(nanoseconds: 1_000_000_000))
        try AudioOutputContract.check(ContractRig(
            name: "NullAudioOutput", output: NullAudioOutput(format: Self.format, clock: clock), clock: clock,
            buffer: .milliseconds(100), paced: true, tolerance: .milliseconds(1)))
    }

    @Test func wavAudioOutput() throws {
        let clock = VirtualClock(start: HostTime(nanoseconds: 1_000_000_000))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-contract-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AudioOutputContract.check(ContractRig(
            name: "WAVAudioOutput", output: try WAVAudioOutput(path: path, format: Self.format, clock: clock), clock: clock,
            buffer: .milliseconds(100), paced: true, tolerance: .milliseconds(1)))
    }

    /// ALSAAudioOutput's own logic (waiting for room, the clock from status,
    /// pause, drop, drain) over a simulated kernel PCM on a virtual clock.
    @Test(arguments: [true, false])
    func alsaOutputOnASimulatedDevice(hardwarePause: Bool) throws {
        let clock = VirtualClock(start: HostTime(nanoseconds: 1_000_000_000))
        let pcm = SimulatedPCM(canPause: hardwarePause, clock: clock)
        let output = try ALSAAudioOutput(.init(device: "sim"), clock: clock, onEvent: { _ in },
                                         opener: { _, _ in pcm }, requireDevice: true)
        try AudioOutputContract.check(ContractRig(
            name: "ALSA on a simulated PCM (hardware pause \(hardwarePause))", output: output, clock: clock,
            buffer: .milliseconds(100), paced: true, tolerance: .milliseconds(21)))
        #expect(output.statistics.underruns == 0)
        #expect(pcm.calls.contains("snd_pcm_pause") == hardwarePause)
        #expect(pcm.calls.contains("snd_pcm_drain"))
    }

    /// libasound's `null` PCM is a real PCM without hardware: open, hw and sw
    /// params, writei, status, pause, drop, drain all run for real. It takes
    /// everything at once, so only the delay bounds are checked, not pacing.
    @Test func alsaOutputOnLibasoundsNullPCM() throws {
        let output = try ALSAAudioOutput.open(.init(device: "null"))
        try AudioOutputContract.check(ContractRig(
            name: "ALSA null PCM", output: output, clock: MonotonicClock(), buffer: output.bufferDuration,
            paced: false, tolerance: .milliseconds(1)))
        #expect(output.isConnected)
    }

    /// On the board (or any machine with a sound card): the real device named
    /// by MARQUEE_ALSA_TEST_DEVICE, in real time (buffer MARQUEE_ALSA_TEST_BUFFER_MS,
    /// default 100). It prints its parameters and underruns: an emulated board
    /// that starves underruns, and its runner retries then.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MARQUEE_ALSA_TEST_DEVICE"] != nil))
    func alsaOutputOnARealDevice() throws {
        let environment = ProcessInfo.processInfo.environment
        let device = environment["MARQUEE_ALSA_TEST_DEVICE"]!
        let buffer = environment["MARQUEE_ALSA_TEST_BUFFER_MS"].flatMap(Int64.init) ?? 100
        let output = try ALSAAudioOutput.open(.init(device: device, bufferDuration: .milliseconds(buffer)))
        defer { print("contract device \(device): underruns \(output.statistics.underruns)") }
        let parameters = try #require(output.statistics.parameters)
        print("contract device \(device): \(parameters.summary)")
        let pacing = try AudioOutputContract.check(ContractRig(
            name: "ALSA \(device)", output: output, clock: MonotonicClock(), buffer: output.bufferDuration,
            paced: true, tolerance: parameters.periodDuration + .milliseconds(30)))
        print("contract device \(device): \(pacing)")
        #expect(output.statistics.underruns == 0)
        // While running, a hw PCM's reading carries the device's own CLOCK_MONOTONIC stamp.
        let chunk = AudioBuffer(pts: .zero, format: output.format,
                                bytes: [UInt8](repeating: 0, count: output.format.sampleRate / 50 * output.format.bytesPerFrame))
        for _ in 0..<10 { try output.write(chunk) }
        let before = MonotonicClock().now()
        let (_, at) = output.delay()
        let after = MonotonicClock().now()
        print("contract device \(device): timestamps from \(output.statistics.timestampSource ?? "none"), reading stamped \((after - at).secondsDouble * 1e6) us before the call returned")
        #expect(at <= after && before - at < .milliseconds(50))
        if parameters.hasMonotonicTimestamps { #expect(output.statistics.timestampSource == "device") }
        output.discard()
    }
}
