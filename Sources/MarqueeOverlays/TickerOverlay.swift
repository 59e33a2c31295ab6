import Glibc
import MarqueeCore

/// Text scrolling right to left along its rectangle (`kind = "ticker"`),
/// `speed` pixels a second, repeated with a gap: the text is drawn by
/// libass once into a strip, and each vblank shows the strip at the
/// offset the time gives, so the step per frame is the speed over the
/// refresh rate, whatever frames came before. From `text`, or from a file
/// looked at once a second and read again when it changes (one line, and
/// the last text kept, when it goes).
///
/// Threading: `draw` on the display's thread only.
public final class TickerOverlay: OverlayContent, @unchecked Sendable {
    // @unchecked: everything here is the display thread's alone.
    private let renderer: ASSRenderer
    public let style: TextStyle
    public let speed: Double
    private let file: String?
    private let onEvent: (@Sendable (String) -> Void)?
    private var text: String
    private var strip: (pixels: [UInt32], width: Int, height: Int, period: Int)?
    private var start: HostTime?
    private var lastLook: HostTime?
    private var fileStamp: timespec?
    private var fileMissing = false

    /// - Parameters:
    ///   - file: read for the text when given (`text` until it can be).
    ///   - onEvent: one line when the file goes or comes back.
    public init(text: String, file: String? = nil, speed: Double, style: TextStyle,
                onEvent: (@Sendable (String) -> Void)? = nil) throws(OverlayError) {
        renderer = try ASSRenderer()
        self.text = text
        self.file = file
        self.speed = speed
        self.style = style
        self.onEvent = onEvent
    }

    /// How far the strip has moved at `time`, in pixels, wrapped to its period.
    func offset(at time: HostTime, period: Int) -> Int {
        let start = start ?? time
        self.start = start
        let moved = Int((speed * Double((time - start).nanoseconds) / 1e9).rounded(.down))
        return period > 0 ? moved % period : 0
    }

    public func draw(into plane: MutableImagePlane, size: PixelSize, at time: HostTime) -> HostTime? {
        if file != nil, lastLook.map({ (time - $0).nanoseconds >= 1_000_000_000 }) ?? true {
            lastLook = time
            readFile()
        }
        if strip == nil || strip?.height != size.height { strip = makeStrip(height: size.height) }
        guard let strip, strip.period > 0 else { return nil }
        let shift = offset(at: time, period: strip.period)
        // Runs of the strip copied whole (the plane is clear, so the gap needs nothing): a
        // per-pixel loop costs a debug build most of the repaint window.
        strip.pixels.withUnsafeBytes { source in
            var column = 0
            while column < size.width {
                let x = (shift + column) % strip.period
                let run = min(size.width - column, x < strip.width ? strip.width - x : strip.period - x)
                if x < strip.width {
                    for row in 0..<size.height {
                        (plane.base + row * plane.bytesPerRow + column * 4)
                            .copyMemory(from: source.baseAddress! + (row * strip.width + x) * 4, byteCount: run * 4)
                    }
                }
                column += run
            }
        }
        // Every vblank: the display takes the first after this.
        return time + .nanoseconds(1)
    }

    /// The text drawn once, left-aligned on one line at the rectangle's height,
    /// followed by a gap of twice that height before it repeats.
    private func makeStrip(height: Int) -> (pixels: [UInt32], width: Int, height: Int, period: Int) {
        var style = self.style
        style.alignment = 4
        let canvas = PixelSize(width: 16384, height: height)
        let script = style.script(text, frame: canvas, fontSize: min(style.size, Double(height) * 0.8))
        guard let extent = try? renderer.extent(of: script, size: canvas), extent.width > 0 else { return ([], 0, height, 0) }
        let width = min(canvas.width, extent.x + extent.width)
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBytes { bytes in
            let plane = MutableImagePlane(base: bytes.baseAddress!, bytesPerRow: width * 4, rows: height)
            try? renderer.draw(script, into: plane, size: PixelSize(width: width, height: height))
        }
        return (pixels, width, height, width + 2 * height)
    }

    private func readFile() {
        guard let file else { return }
        var status = stat()
        guard stat(file, &status) == 0 else {
            if !fileMissing { onEvent?("\(file): \(String(cString: strerror(errno))); the ticker keeps its last text") }
            fileMissing = true
            return
        }
        if fileMissing { onEvent?("\(file): back; the ticker reads it again") }
        fileMissing = false
        let stamp = status.st_mtim
        guard fileStamp.map({ $0.tv_sec != stamp.tv_sec || $0.tv_nsec != stamp.tv_nsec }) ?? true else { return }
        fileStamp = stamp
        guard let handle = fopen(file, "r") else { return }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let count = fread(&chunk, 1, chunk.count, handle)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        let fresh = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: "   ")
        if fresh != text {
            text = fresh
            strip = nil
        }
    }
}
