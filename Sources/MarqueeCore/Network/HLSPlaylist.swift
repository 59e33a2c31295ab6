/// What the player needs from an HLS playlist before libavformat opens it:
/// whether it is live, and how long its segments are, so a live stream
/// starts `live_latency` seconds behind its newest segment (RFC 8216).
public enum HLSPlaylist: Equatable, Sendable {
    /// A multivariant playlist: the URIs of its variants, as written.
    case multivariant(variants: [String])
    /// A media playlist: its segments' durations, oldest first; `isLive`
    /// when no `#EXT-X-ENDLIST` closes it (sliding window or EVENT).
    case media(segmentDurations: [Double], isLive: Bool)

    /// Nil for text that is not an HLS playlist.
    public init?(_ text: String) {
        let lines = text.split(whereSeparator: \.isNewline).map(\.trimmingWhitespace)
        guard lines.first == "#EXTM3U" else { return nil }
        var variants: [String] = []
        var durations: [Double] = []
        var ended = false
        var nextIsVariant = false
        for line in lines.dropFirst() where !line.isEmpty {
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                nextIsVariant = true
            } else if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst("#EXTINF:".count).prefix { $0 != "," }
                durations.append(Double(value.trimmingWhitespace) ?? 0)
            } else if line == "#EXT-X-ENDLIST" {
                ended = true
            } else if !line.hasPrefix("#"), nextIsVariant {
                variants.append(line)
                nextIsVariant = false
            }
        }
        self = variants.isEmpty ? .media(segmentDurations: durations, isLive: !ended) : .multivariant(variants: variants)
    }

    /// libavformat's `live_start_index` for a live media playlist: minus
    /// the number of newest segments that together last at least `latency`
    /// seconds (at least one; the whole window when it is shorter). Nil for
    /// a playlist that is not live.
    public func liveStartIndex(latency: Double) -> Int? {
        guard case .media(let durations, true) = self, !durations.isEmpty else { return nil }
        var covered = 0.0
        var count = 0
        for duration in durations.reversed() {
            count += 1
            covered += duration
            if covered >= latency { break }
        }
        return -count
    }
}

extension String {
    /// Whether this URL (or path) names an HLS playlist by its extension.
    public var looksLikeHLS: Bool {
        let path = split(separator: "?", maxSplits: 1).first.map(String.init) ?? self
        return path.lowercased().hasSuffix(".m3u8")
    }
}
