import Foundation
import MarqueeConfig
import MarqueeTestSupport
import Testing

/// `[playlists.NAME]`, `[[schedule]]` and `[schedule_options]`: read,
/// printed back, refused at their place, and warned of when an entry can
/// never decide.
@Suite struct ScheduleConfigTests {
    /// The lines every bad input below follows: a playlist, and a schedule entry begun at line 4.
    static let preamble = """
        [playlists.morning]
        items = ["m.mp4"]

        [[schedule]]
        """

    /// Must-show 6: each bad input is one problem, at the line and column
    /// of the value at fault, from the real `marquee check-config`.
    @Test(arguments: [
        ("playlist = \"morning\"\ndays = [\"mon\", \"thurs\"]",
         "6:16: schedule[0].days[1]: 'thurs' is not a day: mon, tue, wed, thu, fri, sat, sun (did you mean 'thu'?)"),
        ("playlist = \"morning\"\ndays = [\"monday\"]",
         "6:9: schedule[0].days[0]: 'monday' is not a day: mon, tue, wed, thu, fri, sat, sun (did you mean 'mon'?)"),
        ("playlist = \"morning\"\ndays = []", "6:8: schedule[0].days: is empty, so the entry would never apply; leave days out to mean any"),
        ("playlist = \"morning\"\ndates = [\"2026-02-30\"]", "6:10: schedule[0].dates[0]: there is no day 2026-02-30"),
        ("playlist = \"morning\"\ndates = [\"2026-12-01\", \"2026-2-3\"]", "6:24: schedule[0].dates[1]: '2026-2-3' is not a date \"YYYY-MM-DD\""),
        ("playlist = \"morning\"\ndates = [\"2026-05-10..2026-05-01\"]", "6:10: schedule[0].dates[0]: '2026-05-10..2026-05-01' ends before it starts"),
        ("playlist = \"morning\"\nfrom = \"24:00\"\nuntil = \"08:00\"",
         "6:8: schedule[0].from: '24:00' is not a local time of day \"HH:MM\", 00:00 to 23:59"),
        ("playlist = \"morning\"\nfrom = \"08:00\"\nuntil = \"12:60\"",
         "7:9: schedule[0].until: '12:60' is not a local time of day \"HH:MM\", 00:00 to 23:59"),
        ("playlist = \"morning\"\nfrom = \"08:00\"", "6:8: schedule[0].from: needs until (both or neither: without them the entry takes whole days)"),
        ("playlist = \"morning\"\nuntil = \"08:00\"", "6:9: schedule[0].until: needs from (both or neither: without them the entry takes whole days)"),
        ("playlist = \"mornin\"", "5:12: schedule[0].playlist: no [playlists.mornin] in the file (did you mean 'morning'?)"),
        ("playlist = \"morning\"\nscreen = \"off\"",
         "6:10: schedule[0].screen: give playlist or screen, not both (the screen is on while a playlist plays)"),
        ("days = [\"mon\"]", "4:1: schedule[0]: says neither playlist = \"NAME\" nor screen = \"off\""),
        ("screen = \"on\"", "5:10: schedule[0].screen: 'on' is not \"off\" (outside its screen-off windows the screen is on)"),
        ("playlist = \"morning\"\nform = \"08:00\"", "6:1: unknown key 'form' in [schedule[0]] (did you mean 'from'?)"),
        ("playlist = \"morning\"\n[schedule_options]\nbefore_clock_set = \"evening\"",
         "7:20: schedule_options.before_clock_set: no [playlists.evening] in the file (there are 'morning')"),
        ("playlist = \"morning\"\n[schedule_options]\nswitch = \"item_end\"",
         "7:10: schedule_options.switch: 'item_end' is not one of immediate, item-end (did you mean 'item-end'?)"),
    ])
    func aBadInputIsOneProblemAtItsPlace(lines: String, expected: String) async throws {
        let path = try CheckConfigCommandTests.write(Self.preamble + "\n" + lines + "\n")
        let result = try await CheckConfigCommandTests.marquee(["check-config", path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let headlines = result.stderr.split(separator: "\n").filter { $0.hasPrefix(path) }.map(String.init)
        #expect(headlines == ["\(path):\(expected)"])
        #expect(result.stderr.hasSuffix("marquee: \(path): 1 problem\n"))
    }

    @Test func aNamedPlaylistTakesPlaybacksSettingsItLeavesOut() throws {
        let configuration = try MarqueeConfiguration.parse("""
            [playback]
            transition_ms = 0

            [playlists.menu]
            items = ["menu/", { path = "specials.jpg", duration = 20 }]
            loop = "playlist"
            shuffle = true

            [playlists."late night"]
            items = []
            transition = "cut"
            """)
        #expect(configuration.playlists.map(\.name) == ["menu", "late night"])
        let menu = try #require(configuration.playlist(named: "menu"))
        #expect(menu.items == ["menu/", PlaylistEntry(path: "specials.jpg", duration: 20)])
        #expect(menu.loop == .playlist && menu.shuffle == true && menu.transition == nil)
        let late = try #require(configuration.playlist(named: "late night"))
        #expect(late.loop == nil && late.shuffle == nil && late.transition == .cut)
        // A fade with no duration could only be ignored, as in [playback].
        let fade = ConfigurationTests.problems("[playback]\ntransition_ms = 0\n[playlists.a]\nitems = []\ntransition = \"fade\"\n")
        #expect(fade.map(\.location) == [SourceLocation(line: 5, column: 14)])
        let missing = ConfigurationTests.problems("[playlists.a]\nloop = \"item\"\n")
        #expect(missing.map(\.message) == ["playlists.a: missing 'items' (the playlist's files, folders, globs and URLs)"])
    }

    /// What check-config prints reads back as the same configuration.
    @Test func playlistsAndTheScheduleReadBackAsThemselves() throws {
        let text = """
            [playlists.menu]
            items = ["menu/"]
            loop = "item"

            [playlists."late night"]
            items = [{ path = "x.jpg", duration = 5.0 }]

            [[schedule]]
            screen = "off"
            days = ["sun", "mon"]
            from = "01:00"
            until = "06:30"

            [[schedule]]
            playlist = "late night"
            dates = ["2026-12-24", "2026-12-30..2027-01-02"]

            [[schedule]]
            playlist = "menu"
            from = "22:00"
            until = "02:00"

            [schedule_options]
            switch = "item-end"
            before_clock_set = "menu"
            """
        let configuration = try MarqueeConfiguration.parse(text)
        #expect(configuration.schedule.count == 3)
        #expect(configuration.schedule[0].action == .screenOff && configuration.schedule[0].days == [.mon, .sun])
        #expect(configuration.schedule[1].dates?.map(\.description) == ["2026-12-24", "2026-12-30..2027-01-02"])
        #expect(configuration.schedule[2].times?.isNight == true)
        #expect(configuration.schedule[2].location == SourceLocation(line: 18, column: 1))
        #expect(configuration.scheduleOptions.switchAt == .itemEnd && configuration.scheduleOptions.beforeClockSet == "menu")
        let printed = configuration.tomlText
        #expect(printed.contains("[playlists.\"late night\"]\n"))
        #expect(printed.contains("days = [\"mon\", \"sun\"]\n"))
        let again = try MarqueeConfiguration.parse(printed)
        #expect(again == configuration, "\(printed)")
        #expect(again.tomlText == printed)
    }

    /// Entries that can never decide are warned of, at the entry, naming the
    /// one that covers it; entries that only look alike are not.
    @Test func anEntryThatCanNeverDecideIsAWarning() throws {
        func warnings(_ entries: String) throws -> [String] {
            let checked = try MarqueeConfiguration.check("[playlists.a]\nitems = []\n[playlists.b]\nitems = []\n" + entries, file: "s.toml")
            return checked.warnings.map(\.summary)
        }
        // No days, dates or times: every instant.
        #expect(try warnings("[[schedule]]\nplaylist = \"a\"\n[[schedule]]\nscreen = \"off\"\nfrom = \"01:00\"\nuntil = \"05:00\"\n")
            == ["s.toml:7:1: warning: schedule[1] can never decide: schedule[0] at 5:1 holds every window it has"])
        // Every day, a 24-hour night window: every instant too.
        #expect(try warnings("[[schedule]]\nplaylist = \"a\"\nfrom = \"06:00\"\nuntil = \"06:00\"\n[[schedule]]\nplaylist = \"b\"\ndays = [\"sat\"]\n").count == 1)
        // More days and a wider day window.
        #expect(try warnings("""
            [[schedule]]
            playlist = "a"
            days = ["mon", "tue", "wed"]
            from = "08:00"
            until = "18:00"
            [[schedule]]
            playlist = "b"
            days = ["tue"]
            dates = ["2026-03-03"]
            from = "09:00"
            until = "17:00"
            """).count == 1)
        // A night window holds a later one inside it, and a day window after its start.
        #expect(try warnings("[[schedule]]\nplaylist = \"a\"\nfrom = \"22:00\"\nuntil = \"06:00\"\n[[schedule]]\nplaylist = \"b\"\nfrom = \"23:00\"\nuntil = \"05:00\"\n[[schedule]]\nplaylist = \"b\"\nfrom = \"22:30\"\nuntil = \"23:30\"\n").count == 2)
        // Dates in merged ranges.
        #expect(try warnings("[[schedule]]\nplaylist = \"a\"\ndates = [\"2026-03-01..2026-03-10\", \"2026-03-11..2026-03-20\"]\n[[schedule]]\nplaylist = \"b\"\ndates = [\"2026-03-09..2026-03-12\"]\n").count == 1)
        // Not covered: fewer days, a window sticking out, dates against no dates, a whole day against a night.
        for entries in [
            "[[schedule]]\nplaylist = \"a\"\ndays = [\"mon\"]\n[[schedule]]\nplaylist = \"b\"\ndays = [\"mon\", \"tue\"]\n",
            "[[schedule]]\nplaylist = \"a\"\nfrom = \"08:00\"\nuntil = \"18:00\"\n[[schedule]]\nplaylist = \"b\"\nfrom = \"17:00\"\nuntil = \"19:00\"\n",
            "[[schedule]]\nplaylist = \"a\"\ndates = [\"2026-03-01\"]\n[[schedule]]\nplaylist = \"b\"\ndays = [\"sun\"]\n",
            "[[schedule]]\nplaylist = \"a\"\ndays = [\"mon\"]\n[[schedule]]\nplaylist = \"b\"\ndays = [\"mon\"]\nfrom = \"22:00\"\nuntil = \"01:00\"\n",
            "[[schedule]]\nplaylist = \"a\"\nfrom = \"22:00\"\nuntil = \"06:00\"\n[[schedule]]\nplaylist = \"b\"\nfrom = \"02:00\"\nuntil = \"05:00\"\n",
        ] {
            #expect(try warnings(entries).isEmpty, "\(entries)")
        }
    }

    /// A warning does not fail check-config; it is on stderr with its line.
    @Test func checkConfigPrintsAWarningAndSucceeds() async throws {
        let path = try CheckConfigCommandTests.write(Self.preamble + "\nplaylist = \"morning\"\n[[schedule]]\nscreen = \"off\"\ndays = [\"sun\"]\n")
        let result = try await CheckConfigCommandTests.marquee(["check-config", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(path):6:1: warning: schedule[1] can never decide: schedule[0] at 4:1 holds every window it has\n"
            + "    6 | [[schedule]]\n      | ^\n"))
        #expect(try MarqueeConfiguration.parse(result.stdout) == (try MarqueeConfiguration.load(path: path)))
    }
}
