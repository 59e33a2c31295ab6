import Marquee
import MarqueeCore
import Synchronization

/// An overlay shown only while one item plays, between two times of its
/// own (`item`, `from`, `until`): the role of AVSynchronizedLayer. It is
/// drawn when the item's time at the vblank is inside the window, and asks
/// to be drawn again when the time will cross an end at the player's rate;
/// the player's seeks, loops, rate changes and item changes ask for it at
/// once (`ShowOverlays.follow`).
///
/// Threading: `draw` on the display's thread; `player` set once, from any.
final class ItemTimedOverlay: OverlayContent, @unchecked Sendable {
    // @unchecked: `content` is drawn on the display's thread only; `player` is a Mutex.
    private let content: any OverlayContent
    private let item: String
    private let window: Range<Double>
    private let clock: any HostClock
    private let player = Mutex<Player?>(nil)

    init(_ content: any OverlayContent, item: String, from: Double, until: Double?, clock: any HostClock) {
        self.content = content
        self.item = item
        window = from..<(until ?? .infinity)
        self.clock = clock
    }

    func follow(_ player: Player) { self.player.withLock { $0 = player } }

    /// Whether `source` is the item named: its path as written, or its file's name.
    func names(_ source: String) -> Bool {
        source == item || source.hasSuffix("/" + item)
    }

    func draw(into plane: MutableImagePlane, size: PixelSize, at time: HostTime) -> HostTime? {
        guard let player = player.withLock({ $0 }), let current = player.currentItem, names(current.asset.source) else { return nil }
        let rate = player.rate
        // The item's time at the vblank: now's, moved on at the rate.
        let position = player.currentTime().seconds + (time - clock.now()).secondsDouble * rate
        func after(_ seconds: Double) -> HostTime? {
            seconds.isFinite && seconds >= 0 ? time + .nanoseconds(Int64(seconds * 1e9)) : nil
        }
        guard window.contains(position) else {
            // Nothing drawn; due again when the time reaches the window.
            return rate > 0 && position < window.lowerBound ? after((window.lowerBound - position) / rate)
                : rate < 0 && position >= window.upperBound ? after((position - window.upperBound) / -rate) : nil
        }
        let next = content.draw(into: plane, size: size, at: time)
        let leaves = rate > 0 ? after((window.upperBound - position) / rate) : rate < 0 ? after((position - window.lowerBound) / -rate) : nil
        return [next, leaves].compactMap { $0 }.min()
    }
}
