import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// 48 kHz stereo s16: 48 sample frames (192 bytes) per millisecond.
let stereo48k = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16)

/// `milliseconds` of silence in `format`.
func silence(_ milliseconds: Int, _ format: AudioFormat = stereo48k) -> AudioBuffer {
    AudioBuffer(pts: .zero, format: format, bytes: [UInt8](repeating: 0, count: milliseconds * format.sampleRate / 1000 * format.bytesPerFrame))
}

@Suite struct NullAudioOutputTests {
    @Test func delayIsWrittenMinusPlayedAtTheTimeItWasRead() throws {
        let clock = ManualClock(start: .ms(1_000))
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        #expect(device.bufferFrames == 4_800)
        #expect(device.delay() == (.zero, .ms(1_000)))
        try device.write(silence(50))
        #expect(device.delay() == (.milliseconds(50), .ms(1_000)))
        clock.advance(by: .milliseconds(20))
        #expect(device.delay() == (.milliseconds(30), .ms(1_020)))
        #expect(device.framesPlayed == 960)
        try device.write(silence(40))
        #expect(device.delay().delay == .milliseconds(70))
        #expect(device.framesWritten == 4_320)
        #expect(device.underruns == 0)
    }

    @Test func writeBlocksWhileTheBufferIsFull() throws {
        let clock = ManualClock()
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        try device.write(silence(100))
        let writer = ThreadResult<Bool>()
        writer.run { (try? device.write(silence(30))) != nil }
        #expect(clock.waitForSleepers(1))
        #expect(clock.sleepingUntil == [.ms(30)], "waits exactly until 30 ms have played")
        clock.advance(by: .milliseconds(29))
        Thread.sleep(forTimeInterval: 0.05)
        #expect(!writer.isFinished, "overfilled the buffer")
        clock.advance(by: .milliseconds(1))
        #expect(try writer.value())
        #expect(device.delay().delay == .milliseconds(100))
        #expect(device.underruns == 0)
    }

    @Test func aWriteLargerThanTheBufferIsPacedInPieces() throws {
        let clock = VirtualClock()
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        try device.write(silence(250))
        // 100 ms fit at once; the other 150 ms had to wait for room.
        #expect(clock.now() == .ms(150))
        #expect(device.delay().delay == .milliseconds(100))
        #expect(device.framesWritten == 12_000)
        #expect(device.underruns == 0)
    }

    @Test func runningDryCountsOneUnderrunUntilTheNextWrite() throws {
        let clock = ManualClock()
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        clock.advance(by: .milliseconds(50))
        #expect(device.delay().delay == .zero)
        #expect(device.underruns == 0, "not started is not an underrun")
        try device.write(silence(10))
        clock.advance(by: .milliseconds(30))
        #expect(device.delay().delay == .zero)
        #expect(device.underruns == 1)
        clock.advance(by: .milliseconds(10))
        #expect(device.delay().delay == .zero)
        #expect(device.underruns == 1, "one dry spell is one underrun")
        try device.write(silence(10))
        #expect(device.delay().delay == .milliseconds(10), "playback restarts from the write, not from the dry spell")
        clock.advance(by: .milliseconds(5))
        #expect(device.delay().delay == .milliseconds(5))
        clock.advance(by: .milliseconds(5))
        #expect(device.underruns == 2)
        #expect(device.framesPlayed == 960)
    }

    @Test func pauseFreezesPlaybackAndResumeContinues() throws {
        let clock = ManualClock()
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        try device.write(silence(50))
        clock.advance(by: .milliseconds(10))
        device.pause()
        #expect(device.isPaused)
        clock.advance(by: .milliseconds(100))
        #expect(device.delay().delay == .milliseconds(40))
        #expect(device.underruns == 0)
        device.resume()
        clock.advance(by: .milliseconds(10))
        #expect(device.delay().delay == .milliseconds(30))
        #expect(!device.isPaused)
    }

    @Test func aWriteIntoAFullPausedDeviceWaitsForResume() throws {
        let clock = ManualClock()
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        try device.write(silence(100))
        device.pause()
        let writer = ThreadResult<Bool>()
        writer.run { (try? device.write(silence(10))) != nil }
        for _ in 0..<10 {
            #expect(clock.waitForSleepers(1))
            clock.advance(by: .milliseconds(10))
        }
        #expect(!writer.isFinished, "wrote into a paused, full buffer")
        #expect(device.delay().delay == .milliseconds(100))
        device.resume()
        clock.advance(by: .milliseconds(10))
        #expect(try writer.value())
        #expect(device.delay().delay == .milliseconds(100))
    }

    @Test func discardEmptiesTheBufferWithoutAnUnderrun() throws {
        let clock = ManualClock()
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        try device.write(silence(80))
        clock.advance(by: .milliseconds(10))
        device.discard()
        #expect(device.delay().delay == .zero)
        clock.advance(by: .milliseconds(50))
        #expect(device.underruns == 0)
        #expect(device.framesPlayed == 480)
        try device.write(silence(10))
        #expect(device.delay().delay == .milliseconds(10))
    }

    @Test func drainWaitsUntilEverythingHasPlayed() throws {
        let clock = ManualClock()
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        try device.write(silence(30))
        let drained = ThreadResult<Bool>()
        drained.run { (try? device.drain()) != nil }
        #expect(clock.waitForSleepers(1))
        #expect(clock.sleepingUntil == [.ms(30)])
        clock.advance(by: .milliseconds(30))
        #expect(try drained.value())
        #expect(device.delay().delay == .zero)
        clock.advance(by: .milliseconds(30))
        #expect(device.underruns == 0, "draining to the end is not an underrun")
    }

    /// Untimed mode: a virtual clock makes the device take audio as fast as it
    /// comes while keeping the timeline a real device would have.
    @Test func underAVirtualClockTheTimelineIsExactAndNothingBlocks() throws {
        let clock = VirtualClock()
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        let started = MonotonicClock().now()
        for _ in 0..<100 { try device.write(silence(10)) }
        #expect(clock.now() == .ms(900))
        try device.drain()
        #expect(clock.now() == .ms(1_000))
        #expect(device.framesWritten == 48_000 && device.framesPlayed == 48_000)
        #expect(device.underruns == 0)
        #expect(MonotonicClock().now() - started < .seconds(1))
    }

    @Test func delayIsSafeToReadWhileAnotherThreadWrites() throws {
        let clock = VirtualClock()
        let device = NullAudioOutput(format: stereo48k, clock: clock)
        let writer = ThreadResult<Bool>()
        writer.run {
            for _ in 0..<500 { try? device.write(silence(4)) }
            return true
        }
        var readings = 0
        while !writer.isFinished || readings < 1000 {
            let (delay, at) = device.delay()
            #expect(delay >= .zero && delay <= .milliseconds(100), "delay \(delay) at \(at)")
            readings += 1
        }
        #expect(try writer.value())
        #expect(device.framesWritten == 96_000)
        #expect(device.underruns == 0)
    }
}
