import Marquee
import MarqueeCore

/// Writes one line on stderr when the first frame is on screen (see
/// `Show.firstFrameVariable`); otherwise passes everything through,
/// the scan-out side too when the output has one (`ScanOutFirstFrameReporter`).
class FirstFrameReporter: ScreenPowerOutput {
    private let base: any VideoOutput
    private var reported = false
    /// Pictures presented before the first frame (the splash).
    private var skipping: Int

    init(_ base: any VideoOutput, skipping: Int) {
        self.base = base
        self.skipping = skipping
    }

    static func wrapping(_ output: any VideoOutput, skipping: Int) -> any VideoOutput {
        if let scanOut = output as? any ScanOutOutput { return ScanOutFirstFrameReporter(scanOut, skipping: skipping) }
        return FirstFrameReporter(output, skipping: skipping)
    }

    var acceptedFormats: [PixelFormat] { base.acceptedFormats }
    var refreshInterval: Duration? { base.refreshInterval }
    var screenSize: PixelSize? { base.screenSize }
    var handoverLead: Duration { base.handoverLead }

    func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime {
        report(try base.present(frame, at: target))
    }

    func flush() throws { try base.flush() }

    /// The base's screen; one without (files) is always on.
    var isScreenOn: Bool { (base as? any ScreenPowerOutput)?.isScreenOn ?? true }
    func setScreenPower(_ on: Bool) throws { try (base as? any ScreenPowerOutput)?.setScreenPower(on) }

    func report(_ shown: HostTime) -> HostTime {
        if skipping > 0 {
            skipping -= 1
            return shown
        }
        if !reported {
            reported = true
            let now = MonotonicClock().now().nanoseconds
            StandardStream.error.write("marquee: first frame \(now)\n")
        }
        return shown
    }
}

private final class ScanOutFirstFrameReporter: FirstFrameReporter, ScanOutOutput {
    private let scanOut: any ScanOutOutput

    init(_ scanOut: any ScanOutOutput, skipping: Int) {
        self.scanOut = scanOut
        super.init(scanOut, skipping: skipping)
    }

    func nextTarget(for frame: VideoFrame) throws -> RenderTarget { try scanOut.nextTarget(for: frame) }

    func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime {
        report(try scanOut.present(rendered, of: frame, at: target))
    }

    func canScanOut(_ frame: VideoFrame, dmabuf: DMABufDescriptor) -> Bool { scanOut.canScanOut(frame, dmabuf: dmabuf) }
    func maintain() { scanOut.maintain() }
    var needsPicture: Bool { scanOut.needsPicture }
}
