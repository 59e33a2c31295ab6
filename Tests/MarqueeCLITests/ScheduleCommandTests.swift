import Foundation
import MarqueeTestSupport
import Testing

/// `marquee schedule`, the real executable, with TZ set in its environment.
@Suite struct ScheduleCommandTests {
    /// A campaign on dated days, the screen off from 02:30 (inside Berlin's
    /// skipped hour on 29 March), Friday and Saturday nights to 01:00 (New
    /// York's repeated hour begins at 01:00 on 1 November), weekdays.
    static let configuration = """
        [playlists.weekday]
        items = ["weekday/"]

        [playlists.night]
        items = ["night/"]

        [playlists.campaign]
        items = ["campaign.mp4"]

        [[schedule]]
        playlist = "campaign"
        dates = ["2026-03-27..2026-03-28", "2026-10-30"]
        from = "12:00"
        until = "14:00"

        [[schedule]]
        screen = "off"
        from = "02:30"
        until = "06:00"

        [[schedule]]
        playlist = "night"
        days = ["fri", "sat"]
        from = "22:00"
        until = "01:00"

        [[schedule]]
        playlist = "weekday"
        days = ["mon", "tue", "wed", "thu", "fri"]
        from = "08:00"
        until = "18:00"
        """

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("schedule-\(UUID().uuidString).toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func schedule(_ arguments: [String], zone: String) async throws -> CommandResult {
        let path = try write(configuration)
        return try await Blocking.run {
            try Command.run("/usr/bin/env", ["TZ=\(zone)", MarqueeExecutable.path, "schedule", path] + arguments)
        }
    }

    static func json(_ text: String) throws -> NSArray {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSArray)
    }

    /// Must-show 2: the whole week around Berlin's change to summer time.
    /// On Sunday 29 March 02:30 does not happen: the screen goes off when
    /// the clocks jump, 03:00+02:00.
    @Test func theBerlinSpringWeekAsJSON() async throws {
        let result = try await Self.schedule(["--from", "2026-03-23T00:00:00+01:00", "--until", "2026-03-30T00:00:00+02:00", "--json"],
                                             zone: "Europe/Berlin")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let expected = """
            [
              {"from": "2026-03-23T00:00:00+01:00", "until": "2026-03-23T02:30:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-23T02:30:00+01:00", "until": "2026-03-23T06:00:00+01:00", "screen": "off", "playlist": null},
              {"from": "2026-03-23T06:00:00+01:00", "until": "2026-03-23T08:00:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-23T08:00:00+01:00", "until": "2026-03-23T18:00:00+01:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-03-23T18:00:00+01:00", "until": "2026-03-24T02:30:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-24T02:30:00+01:00", "until": "2026-03-24T06:00:00+01:00", "screen": "off", "playlist": null},
              {"from": "2026-03-24T06:00:00+01:00", "until": "2026-03-24T08:00:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-24T08:00:00+01:00", "until": "2026-03-24T18:00:00+01:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-03-24T18:00:00+01:00", "until": "2026-03-25T02:30:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-25T02:30:00+01:00", "until": "2026-03-25T06:00:00+01:00", "screen": "off", "playlist": null},
              {"from": "2026-03-25T06:00:00+01:00", "until": "2026-03-25T08:00:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-25T08:00:00+01:00", "until": "2026-03-25T18:00:00+01:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-03-25T18:00:00+01:00", "until": "2026-03-26T02:30:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-26T02:30:00+01:00", "until": "2026-03-26T06:00:00+01:00", "screen": "off", "playlist": null},
              {"from": "2026-03-26T06:00:00+01:00", "until": "2026-03-26T08:00:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-26T08:00:00+01:00", "until": "2026-03-26T18:00:00+01:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-03-26T18:00:00+01:00", "until": "2026-03-27T02:30:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-27T02:30:00+01:00", "until": "2026-03-27T06:00:00+01:00", "screen": "off", "playlist": null},
              {"from": "2026-03-27T06:00:00+01:00", "until": "2026-03-27T08:00:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-27T08:00:00+01:00", "until": "2026-03-27T12:00:00+01:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-03-27T12:00:00+01:00", "until": "2026-03-27T14:00:00+01:00", "screen": "on", "playlist": "campaign"},
              {"from": "2026-03-27T14:00:00+01:00", "until": "2026-03-27T18:00:00+01:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-03-27T18:00:00+01:00", "until": "2026-03-27T22:00:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-27T22:00:00+01:00", "until": "2026-03-28T01:00:00+01:00", "screen": "on", "playlist": "night"},
              {"from": "2026-03-28T01:00:00+01:00", "until": "2026-03-28T02:30:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-28T02:30:00+01:00", "until": "2026-03-28T06:00:00+01:00", "screen": "off", "playlist": null},
              {"from": "2026-03-28T06:00:00+01:00", "until": "2026-03-28T12:00:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-28T12:00:00+01:00", "until": "2026-03-28T14:00:00+01:00", "screen": "on", "playlist": "campaign"},
              {"from": "2026-03-28T14:00:00+01:00", "until": "2026-03-28T22:00:00+01:00", "screen": "on", "playlist": null},
              {"from": "2026-03-28T22:00:00+01:00", "until": "2026-03-29T01:00:00+01:00", "screen": "on", "playlist": "night"},
              {"from": "2026-03-29T01:00:00+01:00", "until": "2026-03-29T03:00:00+02:00", "screen": "on", "playlist": null},
              {"from": "2026-03-29T03:00:00+02:00", "until": "2026-03-29T06:00:00+02:00", "screen": "off", "playlist": null},
              {"from": "2026-03-29T06:00:00+02:00", "until": "2026-03-30T00:00:00+02:00", "screen": "on", "playlist": null}
            ]
            """
        #expect(try Self.json(result.stdout) == (try Self.json(expected)), "\(result.stdout)")
    }

    /// The week around New York's change back: Saturday's night ends at the
    /// first 01:00 (EDT), and the offset changes inside the next segment.
    @Test func theNewYorkFallWeekAsJSON() async throws {
        let result = try await Self.schedule(["--from", "2026-10-26T00:00:00-04:00", "--until", "2026-11-02T00:00:00-05:00", "--json"],
                                             zone: "America/New_York")
        #expect(result.status == 0, "\(result.stderr)")
        let expected = """
            [
              {"from": "2026-10-26T00:00:00-04:00", "until": "2026-10-26T02:30:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-26T02:30:00-04:00", "until": "2026-10-26T06:00:00-04:00", "screen": "off", "playlist": null},
              {"from": "2026-10-26T06:00:00-04:00", "until": "2026-10-26T08:00:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-26T08:00:00-04:00", "until": "2026-10-26T18:00:00-04:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-10-26T18:00:00-04:00", "until": "2026-10-27T02:30:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-27T02:30:00-04:00", "until": "2026-10-27T06:00:00-04:00", "screen": "off", "playlist": null},
              {"from": "2026-10-27T06:00:00-04:00", "until": "2026-10-27T08:00:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-27T08:00:00-04:00", "until": "2026-10-27T18:00:00-04:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-10-27T18:00:00-04:00", "until": "2026-10-28T02:30:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-28T02:30:00-04:00", "until": "2026-10-28T06:00:00-04:00", "screen": "off", "playlist": null},
              {"from": "2026-10-28T06:00:00-04:00", "until": "2026-10-28T08:00:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-28T08:00:00-04:00", "until": "2026-10-28T18:00:00-04:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-10-28T18:00:00-04:00", "until": "2026-10-29T02:30:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-29T02:30:00-04:00", "until": "2026-10-29T06:00:00-04:00", "screen": "off", "playlist": null},
              {"from": "2026-10-29T06:00:00-04:00", "until": "2026-10-29T08:00:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-29T08:00:00-04:00", "until": "2026-10-29T18:00:00-04:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-10-29T18:00:00-04:00", "until": "2026-10-30T02:30:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-30T02:30:00-04:00", "until": "2026-10-30T06:00:00-04:00", "screen": "off", "playlist": null},
              {"from": "2026-10-30T06:00:00-04:00", "until": "2026-10-30T08:00:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-30T08:00:00-04:00", "until": "2026-10-30T12:00:00-04:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-10-30T12:00:00-04:00", "until": "2026-10-30T14:00:00-04:00", "screen": "on", "playlist": "campaign"},
              {"from": "2026-10-30T14:00:00-04:00", "until": "2026-10-30T18:00:00-04:00", "screen": "on", "playlist": "weekday"},
              {"from": "2026-10-30T18:00:00-04:00", "until": "2026-10-30T22:00:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-30T22:00:00-04:00", "until": "2026-10-31T01:00:00-04:00", "screen": "on", "playlist": "night"},
              {"from": "2026-10-31T01:00:00-04:00", "until": "2026-10-31T02:30:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-31T02:30:00-04:00", "until": "2026-10-31T06:00:00-04:00", "screen": "off", "playlist": null},
              {"from": "2026-10-31T06:00:00-04:00", "until": "2026-10-31T22:00:00-04:00", "screen": "on", "playlist": null},
              {"from": "2026-10-31T22:00:00-04:00", "until": "2026-11-01T01:00:00-04:00", "screen": "on", "playlist": "night"},
              {"from": "2026-11-01T01:00:00-04:00", "until": "2026-11-01T02:30:00-05:00", "screen": "on", "playlist": null},
              {"from": "2026-11-01T02:30:00-05:00", "until": "2026-11-01T06:00:00-05:00", "screen": "off", "playlist": null},
              {"from": "2026-11-01T06:00:00-05:00", "until": "2026-11-02T00:00:00-05:00", "screen": "on", "playlist": null}
            ]
            """
        #expect(try Self.json(result.stdout) == (try Self.json(expected)), "\(result.stdout)")
    }

    /// Without --json, a line for each change in local time with its offset.
    @Test func theTableHasALinePerChange() async throws {
        let result = try await Self.schedule(["--from", "2026-03-29T00:00:00+01:00", "--until", "2026-03-29T12:00:00+02:00"],
                                             zone: "Europe/Berlin")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            TIME                       SCREEN  PLAYLIST
            2026-03-29T00:00:00+01:00  on      night
            2026-03-29T01:00:00+01:00  on      (default)
            2026-03-29T03:00:00+02:00  off     -
            2026-03-29T06:00:00+02:00  on      (default)

            """)
    }

    /// A bad file is reported as check-config reports it, with its status;
    /// bad times are usage errors.
    @Test func aBadFileOrTimeIsRefused() async throws {
        let path = try Self.write("[[schedule]]\nplaylist = \"nowhere\"\n")
        let schedule = try await Blocking.run { try MarqueeExecutable.run(["schedule", path]) }
        let check = try await Blocking.run { try MarqueeExecutable.run(["check-config", path]) }
        #expect(schedule.status == 1 && check.status == 1)
        #expect(schedule.stderr == check.stderr)
        #expect(schedule.stderr.hasPrefix("\(path):2:12: schedule[0].playlist: no [playlists.nowhere] in the file\n"))
        for arguments in [["--from", "2026-03-29T00:00:00"], ["--from", "2026-03-29T00:00:00Z", "--until", "2026-03-28T00:00:00Z"]] {
            let result = try await Self.schedule(arguments, zone: "UTC")
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
    }
}
