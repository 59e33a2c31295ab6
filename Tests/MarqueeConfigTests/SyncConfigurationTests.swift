import MarqueeConfig
import Testing

/// `[sync]` (issue 41): wall-clock mode with its epoch, and what it needs
/// of the playlist, each at its line and column.
@Suite struct SyncConfigurationTests {
    @Test func aWallClockSectionReadsAsWrittenAndBackAsItself() throws {
        let text = """
            [playback]
            playlist = ["a.mp4"]
            loop = "playlist"

            [sync]
            mode = "wallclock"
            epoch = "2026-01-01T00:00:00+01:00"
            """
        let configuration = try MarqueeConfiguration.parse(text)
        #expect(configuration.sync.mode == .wallclock)
        #expect(configuration.sync.epochSeconds == 1_767_222_000)
        #expect(try MarqueeConfiguration.parse(configuration.tomlText) == configuration)
    }

    @Test(arguments: [
        ("loop = \"playlist\"", "mode = \"wallclock\"", "f.toml:5:8: sync.mode: \"wallclock\" needs epoch"),
        ("loop = \"item\"", "mode = \"wallclock\"\nepoch = \"2026-01-01T00:00:00Z\"", "f.toml:5:8: sync.mode: \"wallclock\" needs [playback] loop = \"playlist\""),
        ("loop = \"playlist\"\nshuffle = true", "mode = \"wallclock\"\nepoch = \"2026-01-01T00:00:00Z\"", "f.toml:6:8: sync.mode: \"wallclock\" needs the playlist in its order"),
        ("loop = \"playlist\"", "mode = \"wallclock\"\nepoch = \"yesterday\"", "f.toml:6:9: sync.epoch: expected an RFC 3339 time"),
        ("loop = \"playlist\"", "mode = \"lockstep\"", "f.toml:5:8: sync.mode"),
    ])
    func aMistakeIsAnErrorAtItsPlace(playback: String, sync: String, expected: String) {
        do {
            _ = try MarqueeConfiguration.parse("[playback]\n\(playback)\n\n[sync]\n\(sync)\n", file: "f.toml")
            Issue.record("accepted: \(sync)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
