import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

@Suite struct ConfigurationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let defaultFile = root.appendingPathComponent("config.toml").path

    /// Parses `text`, expecting it to be invalid; returns the problems.
    static func problems(_ text: String, validateAction: MarqueeConfiguration.ActionValidator? = nil) -> [SourceError] {
        do {
            _ = try MarqueeConfiguration.parse(text, file: "test.toml", validateAction: validateAction)
            Issue.record("accepted:\n\(text)")
            return []
        } catch {
            guard case .invalid(let errors) = error else { Issue.record("\(error)"); return [] }
            return errors.errors
        }
    }

    @Test func theShippedConfigTomlIsExactlyTheDefaults() throws {
        let configuration = try MarqueeConfiguration.load(path: Self.defaultFile)
        #expect(configuration == MarqueeConfiguration())
    }

    /// "Every key commented": each key the effective configuration has is
    /// in config.toml, on a line that follows a comment line.
    @Test func theShippedConfigTomlDocumentsEveryKey() throws {
        var withButton = MarqueeConfiguration()
        var button = MarqueeConfiguration.GPIOButton(chip: "gpiochip0", line: 1, action: "toggle")
        button.longPressMs = 1000
        button.longAction = "next"
        withButton.controls.gpio = [button]
        let keys = Set(withButton.tomlText.split(separator: "\n").compactMap { line -> String? in
            guard let equals = line.firstIndex(of: "=") else { return nil }
            return line[..<equals].trimmingCharacters(in: .whitespaces)
        })
        #expect(keys.count > 30)
        let lines = try String(contentsOfFile: Self.defaultFile, encoding: .utf8).split(separator: "\n").map(String.init)
        for key in keys {
            // Written as a setting, or (the GPIO example) as a commented-out one.
            let index = lines.firstIndex { $0.hasPrefix("\(key) = ") || $0.hasPrefix("# \(key) = ") }
            guard let index else { Issue.record("config.toml lacks '\(key)'"); continue }
            #expect(index > 0 && lines[index - 1].hasPrefix("#"), "'\(key)' has no comment above it")
        }
    }

    @Test func theEffectiveConfigurationReadsBackAsItself() throws {
        var configuration = MarqueeConfiguration()
        configuration.display.card = "/dev/dri/card1"
        configuration.display.mode = .size(width: 1920, height: 1080, refreshHz: 59.94)
        configuration.display.plane = .id(42)
        configuration.display.rotation = 270
        configuration.display.gravity = .resizeAspectFill
        configuration.display.background = RGBColor(red: 0x12, green: 0xAB, blue: 0xEF)
        configuration.decode.hwaccel = .software
        configuration.audio.volume = 0.25
        configuration.playback.playlist = ["a \"quoted\" name.mp4", "/media/*.mkv", PlaylistEntry(path: "menu.jpg", duration: 20),
                                           PlaylistEntry(path: "talk.mp4", captions: "subtitles/talk-en.vtt")]
        configuration.captions.show = false
        configuration.captions.languages = ["de", "en"]
        configuration.playback.loop = .playlist
        configuration.playback.rate = 1.5
        configuration.playback.betweenItems = .black
        configuration.playback.betweenItemsMs = 500
        configuration.playback.transition = .fade
        configuration.playback.transitionMs = 1200
        configuration.playback.rtspTransport = .udp
        configuration.controls.stdin.format = .json
        var button = MarqueeConfiguration.GPIOButton(chip: "gpiochip2", line: 7, action: "seek +10")
        button.activeLow = true
        configuration.controls.gpio = [button]
        configuration.log.statusInterval = 2.5
        let text = configuration.tomlText
        let again = try MarqueeConfiguration.parse(text)
        #expect(again == configuration, "\(text)")
        #expect(again.tomlText == text)
    }

    /// check-config prints a layout too, and it reads back as the same one.
    @Test func aLayoutReadsBackAsItself() throws {
        let configuration = try MarqueeConfiguration.parse("""
            [playlists.offers]
            items = [{ path = "a.png", duration = 8.0 }]

            [[layer]]
            name = "video"
            rect = [0, 0, "70%", "100%"]
            items = ["promo.mp4"]
            display = "HDMI-A-1"

            [[layer]]
            rect = ["70%", 0, "30%", 1080]
            z = 5
            gravity = "resizeAspectFill"
            background = "#202020"
            opacity = 0.5
            playlist = "offers"
            audio = true
            """)
        let text = configuration.tomlText
        #expect(text.contains("[[layer]]\nname = \"layer 2\"\nrect = [\"70%\", 0, \"30%\", 1080]\nz = 5\n"), "\(text)")
        let again = try MarqueeConfiguration.parse(text)
        #expect(again.layers.count == 2)
        #expect(again == configuration, "\(text)")
        #expect(again.mainLayerIndex == 1)
    }

    /// Must-show 4 at the library level: a typo, a wrong type and an
    /// out-of-range value are all reported, each at its line and column.
    @Test func aTypoAWrongTypeAndARangeErrorAreAllReported() {
        let found = Self.problems("""
            [audio]
            volum = 0.5
            latency_ms = "100"

            [playback]
            rate = 32
            """)
        #expect(found.count == 3)
        #expect(found.map(\.location) == [SourceLocation(line: 2, column: 1), SourceLocation(line: 3, column: 14),
                                          SourceLocation(line: 6, column: 8)])
        #expect(found[0].message == "unknown key 'volum' in [audio] (did you mean 'volume'?)")
        #expect(found[1].message == "audio.latency_ms: expected an integer, found a string")
        #expect(found[2].message == "playback.rate: 32 is out of range 0.0625...16")
        #expect(found[0].sourceLine == "volum = 0.5")
    }

    /// A value that could only be ignored is an error at its place (issue 18).
    @Test func aBlackPauseWithoutADurationIsAnError() {
        let found = Self.problems("""
            [playback]
            between_items = "black"
            """)
        #expect(found.map(\.location) == [SourceLocation(line: 2, column: 17)])
        #expect(found.first?.message == "playback.between_items: \"black\" has no effect while between_items_ms is 0 (items cut seamlessly); give it a duration")
        #expect(throws: Never.self) { try MarqueeConfiguration.parse("[playback]\nbetween_items = \"black\"\nbetween_items_ms = 300") }
    }

    /// Playlist entries are strings or inline tables `{ path, duration }`;
    /// each wrong one is an error at its place and the rest are kept.
    @Test func playlistEntriesAreStringsOrTablesWithADuration() throws {
        let configuration = try MarqueeConfiguration.parse("""
            [playback]
            playlist = ["intro.mp4", { path = "menu.jpg", duration = 20 }, { path = "photos", duration = 2.5 }]
            """)
        #expect(configuration.playback.playlist == ["intro.mp4", PlaylistEntry(path: "menu.jpg", duration: 20),
                                                    PlaylistEntry(path: "photos", duration: 2.5)])
        let found = Self.problems("""
            [playback]
            playlist = [
              { path = "a.jpg", duration = 0 },
              { path = "b.jpg", duration = "ten" },
              { duration = 3 },
              { path = "c.jpg", durtion = 3 },
              42,
              { path = "" },
            ]
            """)
        #expect(found.map(\.message) == [
            "playback.playlist[0].duration: 0 s is out of range 0.04...86400 s",
            "playback.playlist[1].duration: expected a number, found a string",
            "playback.playlist[2]: has no path (write { path = \"FILE\", duration = SECONDS })",
            "unknown key 'durtion' in [playback.playlist[3]] (did you mean 'duration'?)",
            "playback.playlist[4]: expected a path or a table { path, duration, captions }, found an integer",
            "playback.playlist[5].path: is empty",
        ])
        #expect(found.map(\.location.description) == ["3:32", "4:32", "5:3", "6:21", "7:3", "8:12"])
    }

    /// Issue 39: `[captions]` and an entry's `captions` file; wrong types at their place.
    @Test func captionsAreASectionAndAnEntryKey() throws {
        let configuration = try MarqueeConfiguration.parse("""
            [playback]
            playlist = [{ path = "talk.mp4", captions = "talk.de.srt" }]
            [captions]
            languages = ["de", "en"]
            """)
        #expect(configuration.playback.playlist == [PlaylistEntry(path: "talk.mp4", captions: "talk.de.srt")])
        #expect(configuration.captions.show && configuration.captions.languages == ["de", "en"])
        let found = Self.problems("""
            [playback]
            playlist = [{ path = "talk.mp4", captions = 3 }]
            [captions]
            show = "yes"
            languages = "de"
            """)
        #expect(found.map(\.message) == [
            "playback.playlist[0].captions: expected a string, found an integer",
            "captions.show: expected true or false, found a string",
            "captions.languages: expected an array of strings, found a string",
        ], "\(found.map(\.message))")
        #expect(found.map(\.location.description) == ["2:45", "4:8", "5:13"])
    }

    /// Issue 19: a transition that is not one, or a fade with no length
    /// or too long a one, is one error each at the value's place.
    @Test func aBadTransitionIsOneErrorAtItsPlace() throws {
        let name = Self.problems("[playback]\ntransition = \"fades\"")
        #expect(name.map(\.location) == [SourceLocation(line: 2, column: 14)])
        #expect(name.map(\.message) == ["playback.transition: 'fades' is not one of cut, fade (did you mean 'fade'?)"])
        let long = Self.problems("[playback]\ntransition = \"fade\"\ntransition_ms = 20000")
        #expect(long.map(\.location) == [SourceLocation(line: 3, column: 17)])
        #expect(long.map(\.message) == ["playback.transition_ms: 20000 ms is out of range 0...10000 ms"])
        let none = Self.problems("[playback]\ntransition = \"fade\"\ntransition_ms = 0")
        #expect(none.map(\.location) == [SourceLocation(line: 2, column: 14)])
        #expect(none.map(\.message) == ["playback.transition: \"fade\" has no effect while transition_ms is 0; give it a duration or use \"cut\""])
        let fade = try MarqueeConfiguration.parse("[playback]\ntransition = \"fade\"\ntransition_ms = 1000")
        #expect(fade.playback.transition == .fade && fade.playback.transitionMs == 1000)
    }

    /// Issue 21: the control socket and HTTP keys. A listen address that is
    /// not a numeric ADDRESS:PORT, one beyond loopback without a token or
    /// without TLS, and half of TLS are each one error at its place; a
    /// loopback listener needs neither.
    @Test func theControlChannelsKeysAreChecked() throws {
        let good = try MarqueeConfiguration.parse("""
            [playback]
            media_roots = ["media", "/srv/marquee/media"]
            [controls.socket]
            path = "/run/marquee/control.sock"
            [controls.http]
            listen = "[::1]:8080"
            playlist_file = "saved.json"
            """)
        #expect(good.playback.mediaRoots == ["media", "/srv/marquee/media"])
        #expect(good.controls.socket.path == "/run/marquee/control.sock")
        #expect(good.controls.http.listen == "[::1]:8080" && good.controls.http.listensOnLoopback)
        #expect(good.controls.http.playlistFile == "saved.json")
        for listen in ["localhost:8080", "127.0.0.1", "127.0.0.1:99999", "[::1:8080", "300.1.1.1:80"] {
            let found = Self.problems("[controls.http]\nlisten = \"\(listen)\"")
            #expect(found.map(\.location) == [SourceLocation(line: 2, column: 10)], "\(listen)")
            #expect(found.first?.message.hasPrefix("controls.http.listen: '\(listen)' is not a numeric ADDRESS:PORT") == true, "\(found)")
        }
        let open = Self.problems("[controls.http]\nlisten = \"0.0.0.0:8443\"\ntoken_file = \"token\"")
        #expect(open.map(\.message) == ["controls.http.listen: listening on '0.0.0.0:8443', beyond loopback, needs cert_file and key_file (TLS); refusing to start without"])
        let half = Self.problems("[controls.http]\nlisten = \"127.0.0.1:8443\"\ncert_file = \"c.pem\"")
        #expect(half.map(\.location) == [SourceLocation(line: 3, column: 13)])
        #expect(half.map(\.message) == ["controls.http.cert_file: TLS needs both cert_file and key_file"])
        // The upload folder lies in a media root, as written (links are the player's to resolve).
        let uploads = try MarqueeConfiguration.parse("""
            [playback]
            media_roots = ["media", "/srv/marquee/media"]
            [controls.http]
            upload_dir = "/srv/marquee/media/./uploads/"
            max_upload_mb = 512
            """)
        #expect(uploads.controls.http.uploadDir == "/srv/marquee/media/./uploads/" && uploads.controls.http.maxUploadMB == 512)
        #expect(try MarqueeConfiguration.parse("[playback]\nmedia_roots = [\"media\"]\n[controls.http]\nupload_dir = \"media/in\"")
            .controls.http.uploadDir == "media/in")
        let outside = Self.problems("[playback]\nmedia_roots = [\"/srv/media\"]\n[controls.http]\nupload_dir = \"/srv/media/../etc\"")
        #expect(outside.map(\.location) == [SourceLocation(line: 4, column: 14)])
        #expect(outside.map(\.message) == ["controls.http.upload_dir: '/srv/media/../etc' must lie inside one of [playback] media_roots ('/srv/media'), where playlists may name files"])
        let noRoots = Self.problems("[controls.http]\nupload_dir = \"/srv/up\"\nmax_upload_mb = 0")
        #expect(noRoots.map(\.message).sorted() == [
            "controls.http.max_upload_mb: 0 MiB is out of range 1...1048576 MiB",
            "controls.http.upload_dir: '/srv/up' must lie inside one of [playback] media_roots (none are set), where playlists may name files",
        ], "\(noRoots)")
        let roots = Self.problems("[playback]\nmedia_roots = \"/srv\"")
        #expect(roots.map(\.message) == ["playback.media_roots: expected an array of strings, found a string"])
    }

    @Test func namesAreCheckedWithSuggestions() {
        let found = Self.problems("""
            [dispaly]
            [decode]
            hwaccel = "vapi"
            [playback]
            loop = "items"
            volume = 0.5
            """)
        #expect(found.map(\.message) == [
            "unknown section [dispaly] (did you mean [display]?)",
            "decode.hwaccel: 'vapi' is not one of auto, vaapi, software (did you mean 'vaapi'?)",
            "playback.loop: 'items' is not one of none, item, playlist (did you mean 'item'?)",
            "unknown key 'volume' in [playback] (it belongs in [audio])",
        ])
    }

    @Test func displayValuesFollowTheKMSVocabulary() throws {
        let configuration = try MarqueeConfiguration.parse("""
            [display]
            mode = "match-frame-rate"
            rotation = 90
            background = "FF8000"
            plane = "overlay"
            """)
        #expect(configuration.display.mode == .matchFrameRate)
        #expect(configuration.display.rotation == 90)
        #expect(configuration.display.background.rgb == 0xFF8000)
        #expect(configuration.display.plane == .overlay)
        let found = Self.problems("""
            [display]
            mode = "1920x"
            rotation = 45
            background = "#GG0000"
            gravity = "fit"
            plane = -1
            """)
        #expect(found.map(\.location.line) == [2, 3, 4, 5, 6])
        #expect(found[1].message == "display.rotation: 45 is not one of 0, 90, 180, 270")
    }

    @Test func numbersTakeIntegersButIntegersDoNotTakeFloats() throws {
        let configuration = try MarqueeConfiguration.parse("[audio]\nvolume = 1\n[log]\nstatus_interval = 5\n")
        #expect(configuration.audio.volume == 1.0)
        #expect(configuration.log.statusInterval == 5)
        let found = Self.problems("[decode]\nthreads = 2.0\n[audio]\nvolume = nan\n")
        #expect(found.map(\.message) == ["decode.threads: expected an integer, found a float", "audio.volume: nan is out of range 0...1"])
    }

    @Test func buttonsAreValidated() {
        let validator: MarqueeConfiguration.ActionValidator = { $0 == "toggle" || $0 == "next" ? nil : "unknown command '\($0)'" }
        let found = Self.problems("""
            [[controls.gpio]]
            chip = "gpiochip0"
            action = "toggle"

            [[controls.gpio]]
            chip = "gpiochip0"
            line = 4
            action = "dance"
            long_action = "next"

            [[controls.gpio]]
            chip = "gpiochip0"
            line = 4
            action = "next"
            edge = "falling"
            long_press_ms = 500
            long_action = "toggle"
            """, validateAction: validator)
        #expect(found.map(\.message) == [
            "controls.gpio[0]: missing 'line'",
            "controls.gpio[1].action: unknown command 'dance'",
            "controls.gpio[1].long_action: needs long_press_ms, the time a press must last to be long",
            "controls.gpio[2].line: gpiochip0 line 4 is already used by the button at 5:1",
            "controls.gpio[2].edge: a long press is timed from the press, so it needs edge = \"rising\"",
        ])
        #expect(found[0].location == SourceLocation(line: 1, column: 1))
    }

    @Test func aGoodButtonReadsWithItsDefaults() throws {
        let configuration = try MarqueeConfiguration.parse("""
            [[controls.gpio]]
            chip = "gpiochip0"
            line = 17
            action = "toggle"
            active_low = true
            long_press_ms = 1500
            long_action = "next"
            """)
        let button = try #require(configuration.controls.gpio.first)
        #expect(button.line == 17 && button.activeLow && button.longAction == "next" && button.longPressMs == 1500)
        #expect(button.debounceMs == 20 && button.edge == .rising)
        #expect(button.location == SourceLocation(line: 1, column: 1))
    }

    @Test func anUnreadableFileSaysWhy() {
        #expect {
            _ = try MarqueeConfiguration.load(path: "/nonexistent/marquee.toml")
        } throws: { error in
            "\(error)" == "/nonexistent/marquee.toml: No such file or directory"
        }
    }
}
