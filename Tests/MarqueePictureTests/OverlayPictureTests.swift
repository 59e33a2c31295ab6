import Foundation
import Marquee
import MarqueeKMS
@testable import MarqueeOverlays
import MarqueeTestSupport
import Testing

/// Issue 39 on the host: overlays drawn by a `LayeredDisplay` in memory
/// over a video layer, against ffmpeg: a PNG logo with alpha as ffmpeg's
/// `overlay` filter puts it over the same picture, and a text (accents,
/// braces) as ffmpeg's `ass` filter draws the same script with libass.
@Suite(.serialized) struct OverlayPictureTests {
    typealias Fidelity = PictureFidelityTests
    static let screen = PixelSize(width: 640, height: 360)
    static let grey = "0x808080"

    /// A 160x90 picture of testsrc2, see-through at its left edge and opaque at its right.
    static func logo(in folder: String) throws -> String {
        let path = "\(folder)/logo.png"
        let result = try Command.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=1",
                                                "-vf", "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255*X/(W-1)'",
                                                "-frames:v", "1", path])
        try #require(result.status == 0, "\(result.stderr)")
        return path
    }

    /// The grey screen, `filters` applied, as RGB.
    static func reference(_ filters: String, inputs: [String] = [], size: PixelSize = screen) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("overlay-\(UUID().uuidString).rgb").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try Command.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=\(grey):size=\(size.width)x\(size.height)"]
                                     + inputs.flatMap { ["-i", $0] }
                                     + ["-filter_complex", filters, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", output])
        try #require(result.status == 0, "\(result.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test func aLogoAndATextOverVideoMatchFFmpeg() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("overlays-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let logo = try Self.logo(in: folder)
        let display = LayeredDisplay.memory(width: Self.screen.width, height: Self.screen.height, clock: MonotonicClock())
        defer { display.close() }
        let video = PlayerLayer(display: display, settings: LayerSettings(gravity: .resize),
                                items: [PlayerItem(source: try Fixtures.path(Fixtures.plain(Self.grey)))],
                                configuration: PlayerConfiguration(videoOutput: nil, audioOutput: nil, hardwareDecoding: .software))
        defer { video.remove() }
        let logoRect = PixelRect(x: 24, y: 24, width: 160, height: 90)
        let image = display.addOverlay(LayerSettings(frame: .pixels(x: 24, y: 24, width: 160, height: 90), zPosition: 10),
                                       content: try ImageOverlay(path: logo))
        let textRect = PixelRect(x: 240, y: 200, width: 360, height: 100)
        let style = TextStyle(size: 40, color: 0xffe040, outline: 3)
        let words = "Grüße {à} 12:34"
        let text = display.addOverlay(LayerSettings(frame: .pixels(x: 240, y: 200, width: 360, height: 100), zPosition: 11),
                                      content: try TextOverlay(text: words, style: style))
        _ = await video.player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero)
        try await LayoutPictureTests.waitUntil { video.isReadyForDisplay && image.isReadyForDisplay && text.isReadyForDisplay }
        let screen = try #require(display.screen())

        let withLogo = try Self.reference("[0][1]overlay=24:24", inputs: [logo])
        let logoPSNR = Fidelity.psnr(LayoutPictureTests.crop(screen.rgb, logoRect), LayoutPictureTests.crop(withLogo, logoRect))
        #expect(logoPSNR >= 35, "logo: \(logoPSNR) dB")

        let script = "\(folder)/text.ass"
        try style.script(words, frame: PixelSize(width: textRect.width, height: textRect.height), fontSize: 40)
            .write(toFile: script, atomically: true, encoding: .utf8)
        let withText = try Self.reference("[0]ass=\(script)", size: PixelSize(width: textRect.width, height: textRect.height))
        let textPSNR = Fidelity.psnr(LayoutPictureTests.crop(screen.rgb, textRect), withText)
        #expect(textPSNR >= 30, "text: \(textPSNR) dB")
        // Something was drawn: the text's rectangle is not all grey.
        #expect(withText.contains { $0 > 200 })

        // Hidden: the video under it again.
        image.settings.isHidden = true
        try await Task.sleep(for: .milliseconds(200))
        let bare = try #require(display.screen())
        let grey = LayoutPictureTests.crop(bare.rgb, logoRect)
        #expect(grey.allSatisfy { abs(Int($0) - 128) <= 2 }, "a hidden overlay still shows")
    }
}
