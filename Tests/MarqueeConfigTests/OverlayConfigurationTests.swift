import MarqueeConfig
import MarqueeCore
import Testing

/// Issue 39, must-show 6 (the file's part): `[[overlay]]` tables. Each
/// problem is one error at the offending value's line:column; a good table
/// reads as written, and writes back as itself.
@Suite struct OverlayConfigurationTests {
    static func found(_ text: String) -> [String] { LayerConfigurationTests.found(text) }

    @Test func badOverlaysAreRefusedWhereTheyAre() {
        #expect(Self.found("""
            [[overlay]]
            text = "no kind"

            [[overlay]]
            kind = "banner"
            text = "x"

            [[overlay]]
            kind = "image"
            anchor = "top-left"

            [[overlay]]
            kind = "text"
            text = "off"
            rect = ["100%", 0, 200, 50]

            [[overlay]]
            kind = "clock"
            anchor = "middle"
            box = "navy"
            speed = 0

            [[overlay]]
            kind = "ticker"
            size = 2

            [[overlay]]
            kind = "text"
            text = "promo"
            from = 3.0

            [[overlay]]
            kind = "text"
            text = "promo"
            item = "promo.mp4"
            from = 5.0
            until = 2.0

            [[overlay]]
            kind = "text"
            text = "in a layer"
            layer = "side"
            """) == [
            "1:1: overlay[0]: says no kind (one of image, text, clock, ticker)",
            "5:8: overlay[1].kind: 'banner' is not one of image, text, clock, ticker",
            "8:1: overlay[2]: an image overlay needs path",
            "15:9: overlay[3].rect: its left edge is at \"100%\", off the display",
            "19:10: overlay[4].anchor: 'middle' is not one of top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right",
            "20:7: overlay[4].box: expected a colour like \"#RRGGBB\" or \"\" for none, found 'navy'",
            "21:9: overlay[4].speed: 0 pixels a second is out of range 1...10000 pixels a second",
            "23:1: overlay[5]: a ticker overlay needs text or file",
            "25:8: overlay[5].size: 2 pixels is out of range 4...1000 pixels",
            "30:8: overlay[6].from: needs item = \"FILE\": the item whose time it counts",
            "37:9: overlay[7].until: 2.0 s is not after from (5.0 s)",
            "42:9: overlay[8].layer: no [[layer]] is called 'side' (there are none)",
        ])
    }

    @Test func anOverlayReadsAsWrittenAndBackAsItself() throws {
        let text = """
            [[overlay]]
            name = "logo"
            kind = "image"
            path = "logo.png"
            anchor = "top-right"
            margin = 16
            opacity = 0.8

            [[overlay]]
            kind = "clock"
            format = "%H:%M:%S"
            rect = ["80%", 0, "20%", 80]
            font = "DejaVu Serif"
            size = 56
            color = "#FFE040"
            box = "#000040"
            display = "HDMI-A-2"
            item = "promo.mp4"
            from = 1.5
            until = 9.0
            """
        let configuration = try MarqueeConfiguration.parse(text, file: "test.toml")
        let overlays = configuration.overlays
        #expect(overlays.map(\.name) == ["logo", "overlay 2"])
        #expect(overlays[0].kind == .image && overlays[0].anchor == .topRight && overlays[0].margin == 16 && overlays[0].rect == nil)
        #expect(overlays[0].z == 1000 && overlays[1].z == 1001)
        #expect(overlays[1].rect == LayerRect(x: .percent(80), y: .pixels(0), width: .percent(20), height: .pixels(80)))
        #expect(overlays[1].box?.rgb == 0x000040 && overlays[1].color.rgb == 0xffe040 && overlays[1].display == "HDMI-A-2")
        #expect(overlays[0].item == nil && overlays[1].item == "promo.mp4" && overlays[1].from == 1.5 && overlays[1].until == 9)
        let again = try MarqueeConfiguration.parse(configuration.tomlText, file: "again.toml")
        #expect(again.overlays == overlays)
    }

    /// Where an anchored overlay of a given size lands on a 1920x1080 display.
    @Test(arguments: [
        (OverlayConfiguration.Anchor.topLeft, PixelRect(x: 24, y: 24, width: 200, height: 100)),
        (.top, PixelRect(x: 860, y: 24, width: 200, height: 100)),
        (.bottomRight, PixelRect(x: 1696, y: 956, width: 200, height: 100)),
        (.center, PixelRect(x: 860, y: 490, width: 200, height: 100)),
        (.left, PixelRect(x: 24, y: 490, width: 200, height: 100)),
    ])
    func anAnchoredOverlaySitsAtItsAnchor(anchor: OverlayConfiguration.Anchor, expected: PixelRect) {
        let rect = anchor.rect(size: PixelSize(width: 200, height: 100), margin: 24)
        #expect(rect.resolve(on: PixelSize(width: 1920, height: 1080)) == expected)
    }
}
