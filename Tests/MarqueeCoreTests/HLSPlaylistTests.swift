import MarqueeCore
import Testing

/// The playlist facts a live start needs, from playlists as ffmpeg's HLS muxer and others write them.
struct HLSPlaylistTests {
    static let slidingWindow = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:40
        #EXTINF:2.000000,
        live00040.ts
        #EXTINF:1.960000,
        live00041.ts
        #EXTINF:2.040000,
        live00042.ts
        #EXTINF:2.000000,
        live00043.ts
        """

    @Test func aLiveWindowStartsTheSegmentsThatCoverTheLatencyFromItsEnd() {
        let playlist = HLSPlaylist(Self.slidingWindow)
        #expect(playlist == .media(segmentDurations: [2, 1.96, 2.04, 2], isLive: true))
        #expect(playlist?.liveStartIndex(latency: 0) == -1, "at least one segment")
        #expect(playlist?.liveStartIndex(latency: 4) == -2)
        #expect(playlist?.liveStartIndex(latency: 4.5) == -3)
        #expect(playlist?.liveStartIndex(latency: 60) == -4, "no further back than the window")
    }

    @Test func anEndedPlaylistIsNotLive() {
        let playlist = HLSPlaylist(Self.slidingWindow + "\n#EXT-X-ENDLIST\n")
        #expect(playlist == .media(segmentDurations: [2, 1.96, 2.04, 2], isLive: false))
        #expect(playlist?.liveStartIndex(latency: 6) == nil)
    }

    @Test func aMultivariantPlaylistListsItsVariants() {
        let text = "#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\r\nlow/index.m3u8\r\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=3000000\r\n  high/index.m3u8  \r\n"
        #expect(HLSPlaylist(text) == .multivariant(variants: ["low/index.m3u8", "high/index.m3u8"]))
    }

    @Test func textThatIsNotAPlaylistIsNil() {
        #expect(HLSPlaylist("this is not a playlist\n#EXTM3U\n") == nil)
        #expect(HLSPlaylist("") == nil)
        #expect("http://h/live.M3U8?token=1".looksLikeHLS)
        #expect(!"http://h/clip.mp4?list=a.m3u8".looksLikeHLS)
    }
}
