import Foundation
import Marquee
import MarqueeKMS
import MarqueeTestSupport
import Synchronization
import Testing

/// Issue 19, fades on the scan-out path: what a KMS plane would show,
/// composed by the same drawing into a `MemoryDisplay`, through a 1 s fade
/// from a white clip to a grey one on a black background.
@Suite struct FadeOnScreenTests {
    /// A memory screen that notes the mean grey level of each composed screen.
    final class MeasuredScreen: ScanOutOutput, @unchecked Sendable {
        // @unchecked: used by the presenter thread, read by the test once the player stopped.
        let display: MemoryDisplay
        private let means = Mutex<[Double]>([])

        init(clock: any HostClock) { display = MemoryDisplay(width: 320, height: 240, clock: clock) }

        var acceptedFormats: [PixelFormat] { display.acceptedFormats }
        var refreshInterval: Duration? { display.refreshInterval }
        func nextTarget(for frame: VideoFrame) throws -> RenderTarget { try display.nextTarget(for: frame) }

        func present(_ rendered: RenderTarget, of frame: VideoFrame, at target: HostTime) throws -> HostTime {
            let shown = try display.present(rendered, of: frame, at: target)
            let screen = PictureCapture.luma(display.screen(), screenWidth: display.width,
                                             rect: PixelRect(x: 0, y: 0, width: display.width, height: display.height))
            means.withLock { $0.append(screen.joined().reduce(0, +) / Double(display.width * display.height)) }
            return shown
        }

        func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime { try display.present(frame, at: target) }
        func canScanOut(_ frame: VideoFrame, dmabuf: DMABufDescriptor) -> Bool { false }
        func maintain() {}
        func flush() throws { try display.flush() }

        var brightness: [Double] { means.withLock { $0 } }
    }

    @Test func theComposedScreenFallsToTheBackgroundAndRises() async throws {
        let clock = VirtualClock()
        let screen = MeasuredScreen(clock: clock)
        var configuration = PlayerConfiguration(videoOutput: screen, audioOutput: nil, hostClock: clock, untimed: true,
                                                hardwareDecoding: .software)
        configuration.transition = .fade(seconds: 1, rgb: 0x000000)
        let items = try [Fixtures.plain("white"), Fixtures.plain("0x808080")].map { PlayerItem(source: try Fixtures.path($0)) }
        let player = QueuePlayer(items: items, configuration: configuration)
        defer { player.stop() }
        let finished = Mutex(false)
        let token = player.addEventHandler { if case .playbackFinished = $0 { finished.withLock { $0 = true } } }
        player.play()
        let deadline = Date(timeIntervalSinceNow: 60)
        while !finished.withLock({ $0 }), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        player.removeEventHandler(token)
        let light = screen.brightness
        #expect(light.count == 100, "\(light.count) screens")
        guard light.count == 100, let low = light.indices.min(by: { light[$0] < light[$1] }) else { return }
        #expect(zip(light[..<low], light[1...low]).allSatisfy { $1 <= $0 }, "\(light.map { Int($0) })")
        #expect(zip(light[low...], light[(low + 1)...]).allSatisfy { $1 >= $0 }, "\(light.map { Int($0) })")
        #expect(light[low] < 1 && light[0] > 250 && abs(light[99] - 128) < 2, "white \(light[0]), black \(light[low]), grey \(light[99])")
        // 0.5 s each way is 12.5 frames at 25 fps.
        let fadingOut = light[..<50].filter { $0 < light[0] - 1 }.count, fadingIn = light[50...].filter { $0 < light[99] - 1 }.count
        #expect((12...13).contains(fadingOut) && (12...13).contains(fadingIn), "fade out \(fadingOut), in \(fadingIn) frames")
    }
}
