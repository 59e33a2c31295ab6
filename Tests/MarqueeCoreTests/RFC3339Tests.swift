import MarqueeCore
import Testing

/// `WallTime.rfc3339` and `WallTime(rfc3339:)`: what the play log and
/// `GET /plays?since=` read and write.
@Suite struct RFC3339Tests {
    @Test func aMomentPrintsInItsOwnOffsetToTheMillisecond() {
        // 2026-12-04T17:03:07.4129Z, shown in Berlin's winter offset.
        let berlin = WallTime(secondsSinceEpoch: 1_796_403_787.4129, utcOffset: 3600)
        #expect(berlin.rfc3339 == "2026-12-04T18:03:07.412+01:00")
        let newYork = WallTime(secondsSinceEpoch: 1_796_403_787.0, utcOffset: -5 * 3600)
        #expect(newYork.rfc3339 == "2026-12-04T12:03:07.000-05:00")
        let india = WallTime(secondsSinceEpoch: 0, utcOffset: 5 * 3600 + 1800)
        #expect(india.rfc3339 == "1970-01-01T05:30:00.000+05:30")
        #expect(WallTime(secondsSinceEpoch: -0.25, utcOffset: 0).rfc3339 == "1969-12-31T23:59:59.750+00:00")
    }

    @Test func textReadsBackAsTheSameMoment() throws {
        for text in ["2026-12-04T18:03:07.412+01:00", "2026-03-29T01:59:59.999-05:00", "2024-02-29T00:00:00.000+00:00"] {
            let time = try #require(WallTime(rfc3339: text))
            #expect(time.rfc3339 == text)
        }
        let utc = try #require(WallTime(rfc3339: "2026-12-04T17:03:07Z"))
        let local = try #require(WallTime(rfc3339: "2026-12-04t18:03:07.000000+01:00"))
        #expect(utc.secondsSinceEpoch == local.secondsSinceEpoch)
        #expect(utc.utcOffset == 0 && local.utcOffset == 3600)
        #expect(try #require(WallTime(rfc3339: "2026-12-04T17:03:07.5z")).secondsSinceEpoch == utc.secondsSinceEpoch + 0.5)
    }

    @Test(arguments: ["", "yesterday", "2026-12-04", "2026-12-04T18:03:07", "2026-12-04 18:03:07Z", "2026-02-30T00:00:00Z",
                      "2026-13-01T00:00:00Z", "2026-12-04T24:00:00Z", "2026-12-04T18:03:07.Z", "2026-12-04T18:03:07+0100",
                      "2026-12-04T18:03:07+01:00 ", "2026-12-04T18:03:07.412+25:00"])
    func malformedTextIsRefused(text: String) {
        #expect(WallTime(rfc3339: text) == nil, "\(text) was accepted")
    }
}
