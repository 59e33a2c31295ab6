import Glibc
import MarqueeCore
@testable import MarqueeOverlays
import Testing

/// When overlays change: a clock's text and its next redraw exactly at the
/// second (or minute) it changes, a ticker's offset stepping by its speed
/// over the refresh rate with no jumps, and the text of each escaped for ASS.
@Suite struct OverlayTimingTests {
    /// Real time fixed at a chosen instant: the clock's text depends on nothing else.
    struct FixedWallClock: WallClock {
        let seconds: Double
        func now() -> WallTime { WallTime(secondsSinceEpoch: seconds, utcOffset: 0) }
    }

    /// A host clock that stays where it is put.
    final class StillClock: HostClock, @unchecked Sendable {
        let time: HostTime
        init(_ time: HostTime) { self.time = time }
        func now() -> HostTime { time }
        func sleep(until deadline: HostTime) {}
        func wait(for signal: WakeSignal, until deadline: HostTime?) {}
    }

    static func local(_ seconds: Double, _ format: String) -> String {
        var whole = time_t(seconds.rounded(.down))
        var parts = tm()
        localtime_r(&whole, &parts)
        var buffer = [CChar](repeating: 0, count: 128)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test(arguments: [("%H:%M:%S", 1.0), ("%H:%M", 60.0), ("%a %d %b, %T", 1.0), ("%Ec", 1.0), ("%OH.%OM", 60.0)])
    func theClockIsDrawnAgainWhenItsTextChanges(format: String, period: Double) throws {
        let instant = 1_796_000_000.25  // a quarter past a second, 20 s past a minute
        let host = HostTime(nanoseconds: 5_000_000_000)
        let clock = try ClockOverlay(format: format, style: TextStyle(), wallClock: FixedWallClock(seconds: instant), hostClock: StillClock(host))
        #expect(clock.period == period)
        // Drawn for a vblank 0.5 s from now: the text of that moment.
        let vblank = host + .milliseconds(500)
        let (text, next) = clock.text(at: vblank)
        #expect(text == Self.local(instant + 0.5, format))
        let boundary = ((instant + 0.5) / period).rounded(.down) * period + period
        let expected = vblank.nanoseconds + Int64(((boundary - instant - 0.5) * 1e9).rounded(.up))
        #expect(abs(next.nanoseconds - expected) <= 1_000, "next redraw \(next.nanoseconds - vblank.nanoseconds) ns after the vblank")
        #expect(Self.local(boundary, format) != text || period == 60 && !format.contains("M"))
    }

    @Test func aTickerMovesBySpeedOverTheRefreshRateEachFrame() throws {
        let ticker = try TickerOverlay(text: "news", speed: 150, style: TextStyle())
        let period = 5000
        var last = ticker.offset(at: HostTime(nanoseconds: 1_000_000_000), period: period)
        #expect(last == 0)
        for frame in 1...3600 {
            let time = HostTime(nanoseconds: 1_000_000_000 + Int64((Double(frame) * 1e9 / 60).rounded()))
            let offset = ticker.offset(at: time, period: period)
            let step = (offset - last + period) % period
            #expect((2...3).contains(step), "frame \(frame): moved \(step) px (150/60 = 2.5)")
            last = offset
        }
    }

    @Test func textIsEscapedForASS() {
        #expect(TextStyle.escaped("a{b}c") == "a\\{b\\}c")
        #expect(TextStyle.escaped("one\ntwo") == "one\\Ntwo")
        #expect(TextStyle.escaped("C:\\Net") == "C:\\\u{2060}Net")
        #expect(TextStyle.assColour(0x123456) == "&H00563412")
    }
}
