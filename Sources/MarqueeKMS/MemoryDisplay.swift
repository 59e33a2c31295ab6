import Glibc
import MarqueeCore

/// A screen in memory that composes each frame exactly as `KMSVideoOutput`
/// fills a full-screen XRGB8888 plane (the same `ScreenComposer`: gravity,
/// pixel aspect, orientation, borders, and the presenter's converter), for
/// checking pictures where there is no display, and for a picture of what
/// is on screen. `screen()` is the composed screen after the last frame,
/// black while the screen is switched off (`ScreenPowerOutput`), as a
/// sleeping monitor shows.
///
/// Threading: `present`, `nextTarget` and `setScreenPower` from the
/// presenter thread only; `screen()` from any thread.
public final class MemoryDisplay: ScanOutOutput, @unchecked Sendable {
    // @unchecked: the pixels are written by the presenter between
    // nextTarget and present, and copied out under `lock` by screen().
    public let width: Int
    public let height: Int
    private let clock: any HostClock
    private let interval: Duration
    private let composer: ScreenComposer
    private let buffer: MemoryBuffer
    private var drawn: PixelRect?
    private var lock = pthread_mutex_t()
    /// The presenter holds `lock` from `nextTarget` to `present`, so `screen()`
    /// never copies a half-drawn picture; a conversion that failed in between
    /// leaves it held, and the next `nextTarget` keeps it.
    private var drawing = false
    /// Written under `lock`, so `screen()` reads it with the pixels.
    private var screenOn = true

    /// - Parameters:
    ///   - width, height: the screen's mode (odd sizes are made even, as KMS modes are).
    ///   - refreshRate: vblanks a second, for the presenter's timing (1...1000).
    public init(width: Int = 1280, height: Int = 800, clock: any HostClock, refreshRate: Double = 60,
                gravity: VideoGravity = .resizeAspect, rotation: Int? = nil, background: UInt32 = 0) {
        self.width = max(2, width & ~1)
        self.height = max(2, height & ~1)
        self.clock = clock
        interval = .nanoseconds(Int64(1e9 / min(max(refreshRate.isNaN ? 60 : refreshRate, 1), 1000)))
        composer = ScreenComposer(settings: .init(gravity: gravity, rotation: rotation, background: background))
        buffer = MemoryBuffer(width: self.width, height: self.height)
        buffer.fill(rgb: background)
        pthread_mutex_init(&lock, nil)
    }

    deinit { pthread_mutex_destroy(&lock) }

    public var acceptedFormats: [PixelFormat] { [.xrgb8888] }
    public var refreshInterval: Duration? { interval }
    public var screenSize: PixelSize? { PixelSize(width: width, height: height) }

    public func nextTarget(for frame: VideoFrame) throws -> RenderTarget {
        let layout = composer.layout(for: frame, strategy: .fullScreen, screenWidth: width, screenHeight: height)
        if !drawing {
            pthread_mutex_lock(&lock)
            drawing = true
        }
        return composer.target(for: frame, layout: layout, buffer: buffer, index: 0, drawn: &drawn, format: .xrgb8888, colour: nil)
    }

    public func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime {
        composer.finish(into: buffer)
        if drawing {
            drawing = false
            pthread_mutex_unlock(&lock)
        }
        clock.sleep(until: target)
        return target
    }

    /// Never called: `canScanOut` refuses every dmabuf, so the presenter
    /// draws every frame through `nextTarget`.
    public func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime { target }

    public func canScanOut(_ frame: VideoFrame, dmabuf: DMABufDescriptor) -> Bool { false }
    public func maintain() {}
    public func flush() throws {}

    /// The screen as composed now: `width` x `height` pixels of R, G, B
    /// bytes; all zero while the screen is off.
    public func screen() -> [UInt8] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return screenOn ? buffer.rgb() : [UInt8](repeating: 0, count: width * height * 3)
    }
}

extension MemoryDisplay: ScreenPowerOutput {
    /// The presenter's, which writes it: no lock.
    public var isScreenOn: Bool { screenOn }

    /// The composed picture is kept, and is the screen again once on. Never throws.
    public func setScreenPower(_ on: Bool) {
        // Between nextTarget and present the presenter already holds the lock.
        if drawing {
            screenOn = on
            return
        }
        pthread_mutex_lock(&lock)
        screenOn = on
        pthread_mutex_unlock(&lock)
    }
}

/// A screen-sized XRGB8888 buffer in memory.
final class MemoryBuffer: ComposedBuffer {
    let width: Int
    let height: Int
    private let pixels: UnsafeMutablePointer<UInt32>

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height)
    }

    deinit { pixels.deallocate() }

    var isNV12: Bool { false }

    func fill(rgb: UInt32) { pixels.update(repeating: rgb & 0xffffff, count: width * height) }

    func fill(_ rect: PixelRect, rgb: UInt32) {
        guard let area = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height)) else { return }
        Blend.fill(base: UnsafeMutableRawPointer(pixels), bytesPerRow: width * 4, area, pixel: rgb & 0xffffff)
    }

    func planes(inside rect: PixelRect) -> [MutableImagePlane] {
        [MutableImagePlane(base: UnsafeMutableRawPointer(pixels + rect.y * width + rect.x), bytesPerRow: width * 4, rows: rect.height)]
    }

    func rgb() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for index in 0..<width * height {
            let pixel = pixels[index]
            out[index * 3] = UInt8(pixel >> 16 & 0xff)
            out[index * 3 + 1] = UInt8(pixel >> 8 & 0xff)
            out[index * 3 + 2] = UInt8(pixel & 0xff)
        }
        return out
    }
}
