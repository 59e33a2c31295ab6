import Foundation
import Marquee
import MarqueeKMS
import MarqueeTestSupport
import Testing

/// Issue 39: `show-text` on a show without a display owner (the single
/// full-screen output): the presenter draws the text into the picture, here
/// composed into a `MemoryDisplay`; a paused picture is drawn again with it,
/// and again without it once the seconds of the text that replaced it are up.
@Suite(.serialized) struct ShowTextOnScreenTests {
    @Test func aPausedPictureShowsTheTextThenLosesIt() async throws {
        let display = MemoryDisplay(width: 640, height: 360, clock: MonotonicClock())
        let player = Player(item: PlayerItem(source: try Fixtures.path(Fixtures.plain("0x808080", seconds: 4))),
                            configuration: PlayerConfiguration(videoOutput: display, audioOutput: nil, hardwareDecoding: .software))
        defer { player.stop() }
        _ = await player.seek(to: MediaTime(seconds: 1, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        try await Task.sleep(for: .milliseconds(300))
        // The 4:3 clip is 480x360 at x 80; the text band is its bottom quarter, 18 px up.
        let band = PixelRect(x: 80, y: 252, width: 480, height: 90)
        func greyness(_ rgb: [UInt8]) -> Double {
            let part = LayoutPictureTests.crop(rgb, band, screenWidth: 640)
            return Double(part.filter { abs(Int($0) - 128) <= 3 }.count) / Double(part.count)
        }
        var before = greyness(display.screen())
        for _ in 0..<100 where before <= 0.99 {
            try await Task.sleep(for: .milliseconds(50))
            before = greyness(display.screen())
        }
        // Shown for longer than any poll can lag: the whole parallel suite
        // starves the test's task of its thread for seconds at a time, and a
        // 4 s text could come and go between two looks (CI saw a test take 240 s).
        player.showText("Doors open at 9", seconds: 600)
        var shown = 1.0
        for _ in 0..<400 where shown >= 0.8 {
            try await Task.sleep(for: .milliseconds(50))
            shown = greyness(display.screen())
        }
        // Replaced by one whose second runs out: the picture is drawn again without it.
        player.showText("Doors open at 9", seconds: 1)
        var after = shown
        for _ in 0..<150 where after <= 0.99 {
            try await Task.sleep(for: .milliseconds(100))
            after = greyness(display.screen())
        }
        #expect(before > 0.99, "the band was not the grey clip before: \(before)")
        #expect(shown < 0.8, "the text did not show over the paused picture: \(shown) of the band still grey")
        #expect(after > 0.99, "the text stayed after its 4 s: \(after) of the band grey")
    }
}
