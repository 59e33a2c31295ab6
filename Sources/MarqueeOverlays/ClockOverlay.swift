import Glibc
import MarqueeCore

/// The time of day over the video (`kind = "clock"`): `format` as
/// strftime(3) writes it in the local zone, drawn again exactly when the
/// text changes: at each second where the format shows seconds, else at
/// each minute. Nothing else wakes the display for it.
///
/// Threading: `draw` on the display's thread only.
public final class ClockOverlay: OverlayContent, @unchecked Sendable {
    // @unchecked: the renderer and the last text are the display thread's alone.
    private let renderer: ASSRenderer
    private let wallClock: any WallClock
    private let hostClock: any HostClock
    public let format: String
    public let style: TextStyle
    /// Seconds between changes of the text: 1 or 60.
    let period: Double

    public init(format: String, style: TextStyle, wallClock: any WallClock = SystemWallClock(),
                hostClock: any HostClock = MonotonicClock()) throws(OverlayError) {
        renderer = try ASSRenderer()
        self.format = format
        self.style = style
        self.wallClock = wallClock
        self.hostClock = hostClock
        period = Self.showsSeconds(format) ? 1 : 60
    }

    /// %S, %T, %r, %X, %c, %s, %+ change every second.
    static func showsSeconds(_ format: String) -> Bool {
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%", var conversion = characters.next() else { continue }
            // E and O only modify the conversion after them.
            if conversion == "E" || conversion == "O", let next = characters.next() { conversion = next }
            if "STrXcs+".contains(conversion) { return true }
        }
        return false
    }

    /// The text at `time` (the vblank it is drawn for), and the host time it next changes.
    func text(at time: HostTime) -> (text: String, next: HostTime) {
        let wall = wallClock.now()
        let seconds = wall.secondsSinceEpoch + Double((time - hostClock.now()).nanoseconds) / 1e9
        var whole = time_t(seconds.rounded(.down))
        var local = tm()
        var text = ""
        if localtime_r(&whole, &local) != nil {
            var buffer = [CChar](repeating: 0, count: 256)
            let count = strftime(&buffer, buffer.count, format, &local)
            text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        // Minutes change on the local zone's minute, which a whole-hour or half-hour offset keeps on the UTC one.
        let next = ((seconds / period).rounded(.down) + 1) * period
        return (text, time + .nanoseconds(Int64(((next - seconds) * 1e9).rounded(.up))))
    }

    /// The text as it is now, every digit an 8: what an anchored clock is measured by.
    public var sampleText: String {
        String(text(at: hostClock.now()).text.map { $0.isNumber ? "8" : $0 })
    }

    public func draw(into plane: MutableImagePlane, size: PixelSize, at time: HostTime) -> HostTime? {
        let (text, next) = text(at: time)
        renderer.drawFitted(text, style: style, into: plane, size: size)
        return next
    }
}
