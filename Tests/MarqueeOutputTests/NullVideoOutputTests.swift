import Foundation
import Marquee
import MarqueeTestSupport
import Testing

@Suite struct NullVideoOutputTests {
    /// A frame whose pts tells the test which one the display holds.
    func frame(_ number: Int) -> VideoFrame {
        VideoFrame(pts: MediaTime(value: Int64(number), timescale: 25), duration: MediaTime(value: 1, timescale: 25),
                   width: 2, height: 2, pixelFormat: .yuv420p, planes: [], storage: NoPixels())
    }

    @Test func presentsOnTheFirstFreeVblankAtOrAfterTheTarget() throws {
        let clock = VirtualClock()
        let display = NullVideoOutput(clock: clock) // 60 Hz
        let tick: Int64 = 16_666_667
        #expect(display.refreshInterval == .nanoseconds(tick))
        #expect(display.displayedFrame == nil)

        #expect(try display.present(frame(0), at: .ms(0)) == HostTime(nanoseconds: 0))
        #expect(try display.present(frame(1), at: HostTime(nanoseconds: 1)) == HostTime(nanoseconds: tick))
        #expect(clock.now() == HostTime(nanoseconds: tick), "present waits on the clock until the vblank")
        #expect(try display.present(frame(2), at: .ms(50)) == HostTime(nanoseconds: 3 * tick))
        // One flip per vblank: a second frame for the same vblank goes up on the next one.
        #expect(try display.present(frame(3), at: HostTime(nanoseconds: 3 * tick)) == HostTime(nanoseconds: 4 * tick))
        // A target in the past shows at the next vblank, not back in time.
        #expect(try display.present(frame(4), at: .ms(0)) == HostTime(nanoseconds: 5 * tick))
        #expect(display.presentedFrames == 5)
        #expect(display.displayedFrame?.pts == MediaTime(value: 4, timescale: 25))
    }

    @Test func ticksCountFromTheDisplaysStartAtItsOwnRate() throws {
        let clock = VirtualClock(start: .ms(1_000))
        let display = NullVideoOutput(clock: clock, refreshRate: 50)
        #expect(display.start == .ms(1_000))
        #expect(display.refreshInterval == .milliseconds(20))
        #expect(try display.present(frame(0), at: .ms(1_001)) == .ms(1_020))
        #expect(try display.present(frame(1), at: .ms(1_059)) == .ms(1_060))
        #expect(display.acceptedFormats == [.yuv420p, .nv12, .yuv420p10, .p010, .xrgb8888, .rgb24])
    }

    @Test func presentBlocksUntilTheClockReachesTheVblank() throws {
        let clock = ManualClock()
        let display = Unchecked(NullVideoOutput(clock: clock, refreshRate: 50))
        let shown = ThreadResult<HostTime>()
        let next = frame(1)
        shown.run { (try? display.value.present(next, at: .ms(25))) ?? HostTime(nanoseconds: -1) }
        #expect(clock.waitForSleepers(1))
        #expect(clock.sleepingUntil == [.ms(40)])
        clock.advance(by: .milliseconds(39))
        Thread.sleep(forTimeInterval: 0.05)
        #expect(!shown.isFinished, "shown before its vblank")
        clock.advance(by: .milliseconds(1))
        #expect(try shown.value() == .ms(40))
        #expect(display.value.presentedFrames == 1)
        #expect(display.value.displayedFrame?.pts == next.pts)
    }
}

final class NoPixels: FrameStorage {}
