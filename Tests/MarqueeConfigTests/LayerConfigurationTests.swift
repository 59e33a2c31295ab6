import MarqueeConfig
import MarqueeCore
import Testing

/// Issue 38, must-show 6: `[[layer]]` tables. What the reader can refuse
/// without a display is each one error at the offending value's
/// line:column, saying what is wrong; a good layout reads as written.
/// (A rectangle placed past a display's right or bottom edge in pixels is
/// not checkable without the display: it is read, and resolves to nothing.)
@Suite struct LayerConfigurationTests {
    static func problems(_ text: String) -> [SourceError] { ConfigurationTests.problems(text) }

    /// "LINE:COLUMN: MESSAGE" for each problem, in file order.
    static func found(_ text: String) -> [String] { problems(text).map { "\($0.location): \($0.message)" } }

    @Test func aLayerOfNoSizeOrANegativeSizeIsRefusedAtTheSize() {
        let found = Self.problems("""
            [[layer]]
            rect = [0, 0, 0, 100]
            items = ["a.mp4"]

            [[layer]]
            rect = [0, 0, 640, -10]
            items = ["a.mp4"]

            [[layer]]
            rect = ["10%", "10%", "0%", "50%"]
            items = ["a.mp4"]

            [[layer]]
            rect = [0, 0, "50%", "-5%"]
            items = ["a.mp4"]
            """)
        #expect(found.map { "\($0.location): \($0.message)" } == [
            "2:15: layer[0].rect: width is 0: a layer must have a size",
            "6:20: layer[1].rect: height is -10: a layer must have a size",
            "10:23: layer[2].rect: width is \"0%\": a layer must have a size",
            "14:22: layer[3].rect: height is \"-5%\": a layer must have a size",
        ])
        #expect(found.first?.sourceLine == "rect = [0, 0, 0, 100]")
        #expect(found.first?.summary == "test.toml:2:15: layer[0].rect: width is 0: a layer must have a size")
    }

    /// A percentage of 100 or more for x or y starts past the display's
    /// edge, and a rectangle that ends at or before the left or top edge
    /// is not on it, whatever the display's size.
    @Test func aRectOffTheDisplayWhateverItsSizeIsRefusedAtItsStart() {
        #expect(Self.found("""
            [[layer]]
            rect = ["100%", 0, "10%", "10%"]
            items = ["a.mp4"]

            [[layer]]
            rect = [0, "150%", 100, 100]
            items = ["a.mp4"]

            [[layer]]
            rect = ["-60%", 0, "50%", "50%"]
            items = ["a.mp4"]

            [[layer]]
            rect = [0, -700, 640, 640]
            items = ["a.mp4"]
            """) == [
            "2:9: layer[0].rect: its left edge is at \"100%\", off the display",
            "6:12: layer[1].rect: its top edge is at \"150%\", off the display",
            "10:9: layer[2].rect: it ends at or before the display's left edge",
            "14:12: layer[3].rect: it ends at or before the display's top edge",
        ])
    }

    /// Partly off the display (x + width over 100%, a size over 100%, a
    /// negative start that still reaches in) is read and cut to the display;
    /// pixels past its right edge need the display to know, and resolve to nil.
    @Test func aRectPartlyOffTheDisplayIsReadAndCutToIt() throws {
        let configuration = try MarqueeConfiguration.parse("""
            [[layer]]
            rect = ["60%", "-10%", "50%", "150%"]
            items = ["a.mp4"]

            [[layer]]
            rect = [3000, 0, 640, 480]
            items = ["b.mp4"]
            """)
        let rects = configuration.layers.map(\.rect)
        #expect(rects == [LayerRect(x: .percent(60), y: .percent(-10), width: .percent(50), height: .percent(150)),
                          .pixels(x: 3000, y: 0, width: 640, height: 480)])
        let screen = PixelSize(width: 1920, height: 1080)
        #expect(rects[0].resolve(on: screen) == PixelRect(x: 1152, y: 0, width: 768, height: 1080))
        #expect(rects[1].resolve(on: screen) == nil)
        #expect(rects[1].resolve(on: PixelSize(width: 3840, height: 2160)) == PixelRect(x: 3000, y: 0, width: 640, height: 480))
    }

    @Test func aMalformedRectIsRefusedAtTheValueOrTheElement() {
        let found = Self.problems("""
            [[layer]]
            rect = [0, 0, 640]
            items = ["a.mp4"]

            [[layer]]
            rect = [0, 0, "640", 480]
            items = ["a.mp4"]

            [[layer]]
            rect = "fullscreen"
            items = ["a.mp4"]

            [[layer]]
            rect = [0.5, 0, 640, 480]
            items = ["a.mp4"]

            [[layer]]
            rect = ["nan%", 0, 10, 10]
            items = ["a.mp4"]

            [[layer]]
            rect = [0, 0, 40000, 480]
            items = ["a.mp4"]
            """)
        #expect(found.map(\.location.description) == ["2:8", "6:15", "10:8", "14:9", "18:9", "22:15"])
        let messages = found.map(\.message)
        guard messages.count == 6 else { return }
        #expect(messages[0] == "layer[0].rect: expected [x, y, width, height] (pixels, or strings like \"50%\"), found an array")
        #expect(messages[1] == "layer[1].rect: width must be a number of pixels or a percentage like \"25%\", found '640'")
        #expect(messages[2] == "layer[2].rect: expected [x, y, width, height] (pixels, or strings like \"50%\"), found a string")
        #expect(messages[3] == "layer[3].rect: x must be a number of pixels or a percentage like \"25%\", found a float")
        #expect(messages[4] == "layer[4].rect: x must be a number of pixels or a percentage like \"25%\", found 'nan%'")
        // Beyond ±32768 pixels: refused at the element, saying so.
        #expect(messages[5] == "layer[5].rect: width 40000 is out of range -32768...32768")
    }

    @Test func aLayerPlaysANamedPlaylistOrItsItemsButNotBothOrNeither() {
        #expect(Self.found("""
            [playlists.menu]
            items = ["menu.mp4"]

            [[layer]]
            name = "ticker"
            playlist = "mneu"

            [[layer]]
            playlist = "menu"
            items = ["a.mp4"]

            [[layer]]
            name = "empty"
            rect = [0, 0, 100, 100]
            """) == [
            "6:12: layer[0].playlist: no [playlists.mneu] in the file (did you mean 'menu'?)",
            "10:9: layer[1].items: give playlist or items, not both",
            "12:1: layer[2]: says neither playlist = \"NAME\" nor items = [...]",
        ])
        // With no [playlists.*] at all.
        #expect(Self.found("[[layer]]\nplaylist = \"menu\"\n") == ["2:12: layer[0].playlist: no [playlists.menu] in the file"])
    }

    @Test func onlyOneLayerMayHaveAudio() throws {
        #expect(Self.found("""
            [[layer]]
            name = "main"
            items = ["a.mp4"]
            audio = true

            [[layer]]
            name = "side"
            items = ["b.mp4"]
            audio = true

            [[layer]]
            items = ["c.mp4"]
            audio = true
            """) == [
            "9:9: layer[1].audio: only one layer's sound plays; main already has audio = true",
            "13:9: layer[2].audio: only one layer's sound plays; main already has audio = true",
        ])
        // audio = false on every layer is no conflict; the first layer is then the main one.
        let quiet = try MarqueeConfiguration.parse("[[layer]]\nitems = [\"a.mp4\"]\naudio = false\n[[layer]]\nitems = [\"b.mp4\"]\naudio = false\n")
        #expect(quiet.layers.map(\.audio) == [false, false])
        #expect(quiet.mainLayerIndex == 0)
    }

    @Test func anUnknownKeyAndBadValuesAreEachAnErrorAtTheirPlace() {
        let found = Self.problems("""
            [[layer]]
            name = "video"
            items = ["a.mp4"]
            opacty = 0.5
            z = 5000
            gravity = "fit"
            opacity = 1.5
            background = "red"
            """)
        #expect(found.map(\.location.description) == ["4:1", "5:5", "6:11", "7:11", "8:14"])
        let messages = found.map(\.message)
        guard messages.count == 5 else { return }
        #expect(messages[0] == "unknown key 'opacty' in [layer[0]] (did you mean 'opacity'?)")
        #expect(messages[1] == "layer[0].z: 5000 is out of range -1000...1000")
        #expect(messages[2].hasPrefix("layer[0].gravity: 'fit' is not one of resizeAspect, resizeAspectFill, resize"), "\(messages[2])")
        #expect(messages[3] == "layer[0].opacity: 1.5 is out of range 0...1")
        #expect(messages[4] == "layer[0].background: 'red' is not a colour like \"#RRGGBB\"")
        #expect(found[0].sourceLine == "opacty = 0.5")
    }

    /// Two layers, one in percentages and one in pixels, stacked by z; the
    /// one with audio = true is the main one, else the first.
    @Test func aGoodLayoutReadsAsWritten() throws {
        let text = """
            [display]
            background = "#102030"
            gravity = "resizeAspectFill"

            [playlists.ticker]
            items = ["news.mp4", "weather.mp4"]
            loop = "playlist"

            [[layer]]
            name = "main"
            rect = [0, 0, "75%", "100%"]
            items = ["a.mp4", { path = "menu.jpg", duration = 5 }]

            [[layer]]
            name = "ticker"
            rect = [1440, "50%", 480, "50%"]
            z = -1
            gravity = "resize"
            background = "#FF0000"
            opacity = 0.5
            display = "HDMI-A-2"
            playlist = "ticker"
            audio = true
            """
        let configuration = try MarqueeConfiguration.parse(text)
        let layers = configuration.layers
        try #require(layers.count == 2)
        let (main, ticker) = (layers[0], layers[1])
        #expect(main.name == "main" && ticker.name == "ticker")
        #expect(main.rect == LayerRect(x: .pixels(0), y: .pixels(0), width: .percent(75), height: .percent(100)))
        #expect(ticker.rect == LayerRect(x: .pixels(1440), y: .percent(50), width: .pixels(480), height: .percent(50)))
        // z: the file's order unless given.
        #expect(main.z == 0 && ticker.z == -1)
        #expect(layers.sorted { $0.z < $1.z }.map(\.name) == ["ticker", "main"])
        // Gravity and background: [display]'s unless given.
        #expect(main.gravity == .resizeAspectFill && ticker.gravity == .resize)
        #expect(main.background.rgb == 0x102030 && ticker.background.rgb == 0xFF0000)
        #expect(main.opacity == 1 && ticker.opacity == 0.5)
        #expect(main.display == nil && ticker.display == "HDMI-A-2")
        #expect(main.content == .items(["a.mp4", PlaylistEntry(path: "menu.jpg", duration: 5)]))
        #expect(ticker.content == .playlist("ticker"))
        #expect(main.audio == nil && ticker.audio == true)
        #expect(main.location == SourceLocation(line: 9, column: 1) && ticker.location == SourceLocation(line: 14, column: 1))
        // audio = true makes the second layer the main one.
        #expect(configuration.mainLayerIndex == 1 && configuration.mainLayer?.name == "ticker")
        let screen = PixelSize(width: 1920, height: 1080)
        #expect(main.rect.resolve(on: screen) == PixelRect(x: 0, y: 0, width: 1440, height: 1080))
        #expect(ticker.rect.resolve(on: screen) == PixelRect(x: 1440, y: 540, width: 480, height: 540))

        // The effective configuration (check-config's output) reads back as the same layers.
        let again = try MarqueeConfiguration.parse(configuration.tomlText)
        func placeless(_ layers: [LayerConfiguration]) -> [LayerConfiguration] { layers.map { var layer = $0; layer.location = nil; return layer } }
        #expect(placeless(again.layers) == placeless(layers), "\(configuration.tomlText)")

        // Without audio = true the first layer is the main one; unnamed layers are "layer N".
        let plain = try MarqueeConfiguration.parse("""
            [[layer]]
            rect = [0, 0, "50%", "100%"]
            items = ["a.mp4"]

            [[layer]]
            rect = ["50%", 0, "50%", "100%"]
            items = ["b.mp4"]
            """)
        #expect(plain.layers.map(\.name) == ["layer 1", "layer 2"] && plain.layers.map(\.z) == [0, 1])
        #expect(plain.mainLayerIndex == 0 && plain.mainLayer?.name == "layer 1")
        // No [[layer]]: no layout and no main layer.
        #expect(try MarqueeConfiguration.parse("[playback]\nplaylist = [\"a.mp4\"]\n").mainLayerIndex == nil)
    }
}
