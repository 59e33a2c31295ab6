import MarqueeConfig
import Testing

/// Where the playing item lands when a watched playlist changes.
@Suite struct PlaylistArrangementTests {
    @Test func aDroppedFilePlaysInItsTurnAroundTheCurrentItem() {
        let later = PlaylistArrangement(["a", "b", "c", "d"], previous: ["a", "b", "d"], current: 1, replaced: [])
        #expect(later == PlaylistArrangement(played: ["a"], upcoming: ["c", "d"], keepsCurrent: true), "c sorts after b: next")
        let earlier = PlaylistArrangement(["0", "a", "b", "d"], previous: ["a", "b", "d"], current: 1, replaced: [])
        #expect(earlier == PlaylistArrangement(played: ["0", "a"], upcoming: ["d"], keepsCurrent: true), "0 sorts first: next pass")
    }

    @Test func aDeletedCurrentFileLeavesAndTheOrderGoesOnAfterIt() {
        let gone = PlaylistArrangement(["a", "c", "d"], previous: ["a", "b", "c", "d"], current: 1, replaced: [])
        #expect(gone == PlaylistArrangement(played: ["a"], upcoming: ["c", "d"], keepsCurrent: false))
        let goneFirst = PlaylistArrangement(["b", "c"], previous: ["a", "b", "c"], current: 0, replaced: [])
        #expect(goneFirst == PlaylistArrangement(played: [], upcoming: ["b", "c"], keepsCurrent: false))
        let allGone = PlaylistArrangement([], previous: ["a"], current: 0, replaced: [])
        #expect(allGone == PlaylistArrangement(played: [], upcoming: [], keepsCurrent: false))
    }

    @Test func aCurrentFileWrittenAgainPlaysOutAndItsNewContentsNextPass() {
        let rewritten = PlaylistArrangement(["a", "b", "c"], previous: ["a", "b", "c"], current: 1, replaced: ["b"])
        #expect(rewritten == PlaylistArrangement(played: ["a", "b"], upcoming: ["c"], keepsCurrent: false))
        let other = PlaylistArrangement(["a", "b", "c"], previous: ["a", "b", "c"], current: 1, replaced: ["c"])
        #expect(other.keepsCurrent, "another file written again does not move the current one")
    }

    @Test func withNothingPlayingEverythingIsUpcoming() {
        #expect(PlaylistArrangement(["a", "b"], previous: [], current: nil, replaced: [])
            == PlaylistArrangement(played: [], upcoming: ["a", "b"], keepsCurrent: false))
    }

    @Test func aFileListedTwiceKeepsTheOccurrenceThatPlays() {
        let second = PlaylistArrangement(["a", "b", "a", "c"], previous: ["a", "b", "a"], current: 2, replaced: [])
        #expect(second == PlaylistArrangement(played: ["a", "b"], upcoming: ["c"], keepsCurrent: true))
    }
}
