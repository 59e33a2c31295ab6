import MarqueeCore
import MarqueeKMS
import Testing

/// A memory screen switched off shows black, as a sleeping monitor does,
/// and its picture again once on.
@Suite struct MemoryDisplayPowerTests {
    @Test func offIsBlackAndOnShowsThePictureAgain() {
        let display = MemoryDisplay(width: 4, height: 2, clock: MonotonicClock(), background: 0x204080)
        let picture = display.screen()
        #expect(picture.prefix(3) == [0x20, 0x40, 0x80])
        display.setScreenPower(false)
        #expect(!display.isScreenOn)
        #expect(display.screen() == [UInt8](repeating: 0, count: 4 * 2 * 3))
        display.setScreenPower(true)
        #expect(display.isScreenOn && display.screen() == picture)
    }
}
