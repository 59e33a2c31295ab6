import Glibc
import MarqueeCore
import Synchronization

/// The display output for a box whose display is not there at start (a TV
/// that is off when the box boots, a cable not in yet): playback runs as
/// usual, pictures go nowhere, and once a second (as `ConnectorWatch` looks
/// at a display that went away) it tries to open the display again; when a
/// connector is connected it sets the mode and from then on is that
/// `KMSVideoOutput`. The presenter draws the last picture again for it
/// (`needsPicture`) when nothing else is coming.
///
/// Threading: the presenter thread only (VideoOutput's contract), except
/// `screenSize`, which the source thread reads.
public final class AwaitedDisplay: ScanOutOutput, @unchecked Sendable {
    // @unchecked: everything but `screen` is used by the presenter thread only.
    private let options: KMSOptions
    private let clock: any HostClock
    private var display: KMSVideoOutput?
    private var nextLook: HostTime
    /// Where pictures are drawn while there is no display: a few pixels,
    /// so the presenter's conversion costs next to nothing.
    private let scratch: UnsafeMutableRawPointer
    private let screen = Mutex<PixelSize?>(nil)
    /// A picture was drawn while there was no display.
    private var drewWhileAway = false
    /// The last error that was not "no display", said once.
    private var lastProblem: String?
    private let onConnected: (@Sendable () -> Void)?
    /// The screen power asked for, given to the display when it comes.
    private var screenOn = true

    static let scratchSize = 16
    /// The `RenderTarget.buffer` of the scratch picture.
    static let scratchBuffer = -1

    /// - Parameters:
    ///   - options: `onDisplayEvent` is told, in one line, when the display comes.
    ///   - onConnected: called (on the presenter thread) once the display is there.
    public init(options: KMSOptions, clock: any HostClock, onConnected: (@Sendable () -> Void)? = nil) {
        self.options = options
        self.onConnected = onConnected
        self.clock = clock
        nextLook = clock.now()
        scratch = .allocate(byteCount: Self.scratchSize * Self.scratchSize * 4, alignment: 64)
    }

    deinit { scratch.deallocate() }

    /// The display once it is there.
    public var output: KMSVideoOutput? { display }

    public var acceptedFormats: [PixelFormat] { display?.acceptedFormats ?? [.xrgb8888] }
    public var refreshInterval: Duration? { display?.refreshInterval }
    /// Nil until the display is there (a picture is decoded at full size
    /// meanwhile), then its first mode's size.
    public var screenSize: PixelSize? { screen.withLock { $0 } }
    public var needsPicture: Bool { display != nil && drewWhileAway }

    public func nextTarget(for frame: VideoFrame) throws -> RenderTarget {
        lookForDisplay()
        if let display { return try display.nextTarget(for: frame) }
        let plane = MutableImagePlane(base: scratch, bytesPerRow: Self.scratchSize * 4, rows: Self.scratchSize)
        return RenderTarget(buffer: Self.scratchBuffer, planes: [plane], format: .xrgb8888, width: Self.scratchSize, height: Self.scratchSize)
    }

    public func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime {
        guard let display, rendered.buffer != Self.scratchBuffer else {
            // Paced as a display would be, so the player's clock runs as usual.
            clock.sleep(until: target)
            drewWhileAway = true
            return clock.now()
        }
        drewWhileAway = false
        return try display.present(rendered, of: frame, at: target)
    }

    /// Only for frames `canScanOut` accepted, which needs the display.
    public func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime {
        guard let display else { return target }
        drewWhileAway = false
        return try display.present(frame, at: target)
    }

    public func canScanOut(_ frame: VideoFrame, dmabuf: DMABufDescriptor) -> Bool {
        display?.canScanOut(frame, dmabuf: dmabuf) ?? false
    }

    public func flush() throws { try display?.flush() }

    public func maintain() {
        lookForDisplay()
        display?.maintain()
    }

    /// Opens the display, at most once per `ConnectorWatch.interval`, while it is not there.
    private func lookForDisplay() {
        let now = clock.now()
        guard display == nil, now >= nextLook else { return }
        nextLook = now + ConnectorWatch.interval
        do throws(KMSError) {
            let opened = try KMSVideoOutput(options: options, clock: clock)
            // Off before its first frame: the mode waits for the screen to be turned on.
            if !screenOn { try opened.setScreenPower(false) }
            display = opened
            screen.withLock { $0 = opened.screenSize }
            options.onDisplayEvent?("display \(opened.connector.name) connected: \(opened.planeSummary)")
            onConnected?()
        } catch where error.isNoDisplay {
            // Still waiting; said once, at the start.
        } catch {
            let line = "\(error)"
            if line != lastProblem { options.onDisplayEvent?("\(line); trying again every second") }
            lastProblem = line
        }
    }
}

/// Screen power before the display is there is kept for it; after, it is the display's.
extension AwaitedDisplay: ScreenPowerOutput {
    public var isScreenOn: Bool { screenOn }

    /// - Throws: `KMSError` from the display's switch.
    public func setScreenPower(_ on: Bool) throws(KMSError) {
        screenOn = on
        try display?.setScreenPower(on)
    }
}
