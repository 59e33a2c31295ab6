import MarqueeCore

/// A screen in memory for a `LayeredDisplay`: no planes (every layer is
/// composed, as on a card with only a primary plane), commits paced at the
/// refresh rate on the display's clock. What host tests compose layers on.
final class MemoryHead: DisplayHead {
    let name: String
    let screenSize: PixelSize?
    let refreshInterval: Duration
    let primary: [any ComposedBuffer]
    let primaryEpoch = 0
    private let clock: any HostClock
    private var shown = 0
    /// Vblank 0; they tick every `refreshInterval` from it, as NullVideoOutput's do.
    private let origin: HostTime
    private var lastVblank: HostTime?

    init(width: Int, height: Int, clock: any HostClock, refreshRate: Double, background: UInt32, name: String) {
        self.name = name
        let size = PixelSize(width: max(2, width & ~1), height: max(2, height & ~1))
        screenSize = size
        self.clock = clock
        origin = clock.now()
        refreshInterval = .nanoseconds(Int64(1e9 / min(max(refreshRate.isNaN ? 60 : refreshRate, 1), 1000)))
        primary = (0..<2).map { _ in
            let buffer = MemoryBuffer(width: size.width, height: size.height)
            buffer.fill(rgb: background)
            return buffer
        }
    }

    var summary: String { "\(name) \(screenSize!) at \(String(1e9 / Double(refreshInterval.nanoseconds), places: 2)) Hz, no planes" }
    var nextPrimary: Int { (shown + 1) % primary.count }
    var needsPrimary: Bool { lastVblank == nil }

    func assignPlanes(_ rects: [PixelRect], composedOnly: [Bool], needsAlpha: [Bool]) -> [Int: UInt32] { [:] }

    func makeBuffer(width: Int, height: Int, forPlane: Bool, alpha: Bool) throws -> any ComposedBuffer {
        MemoryBuffer(width: width, height: height)
    }

    func nextVblank(after now: HostTime) -> HostTime? {
        let period = refreshInterval.nanoseconds
        var index = max(0, (now - origin).nanoseconds + period - 1) / period
        if let last = lastVblank { index = max(index, (last - origin).nanoseconds / period + 1) }
        return origin + .nanoseconds(index * period)
    }

    /// At the first vblank from now (never two commits in one).
    func commit(primary index: Int?, planes: [PlaneContent], changed: Set<UInt32>) throws -> HostTime {
        if let index { shown = index }
        let vblank = nextVblank(after: clock.now())!
        clock.sleep(until: vblank)
        lastVblank = vblank
        return vblank
    }

    func maintain() -> HeadChange? { nil }
    func setPower(_ on: Bool) throws {}
    func close() {}
}
