import MarqueeCore

extension MarqueeConfiguration {
    /// `[sync]`: screens in lockstep (docs/sync.md).
    public struct Sync: Sendable, Equatable {
        public enum Mode: String, Sendable, CaseIterable {
            /// Each player on its own clock.
            case off
            /// The playlist at wall time t is `(t - epoch) mod` its length.
            case wallclock
        }

        public var mode = Mode.off
        /// RFC 3339: the instant the loop's first pass began ("" : none).
        public var epoch = ""

        public init() {}

        /// The epoch in seconds since 1970, when it is valid RFC 3339.
        public var epochSeconds: Double? { WallTime(rfc3339: epoch)?.secondsSinceEpoch }
    }
}

extension MarqueeConfiguration.Sync {
    /// - Parameter playback: `[playback]`, read before: a wall schedule needs a playlist that loops as it is.
    mutating func read(_ reader: TableReader, playback: MarqueeConfiguration.Playback) {
        reader.read(&mode, "mode")
        reader.read(&epoch, "epoch")
        reader.finish()
        if let value = reader.table["epoch"], !epoch.isEmpty, epochSeconds == nil {
            reader.error("epoch", "expected an RFC 3339 time like \"2026-01-01T00:00:00Z\", found '\(epoch)'", at: value.location)
        }
        guard mode == .wallclock, let value = reader.table["mode"] else { return }
        if epoch.isEmpty { reader.error("mode", "\"wallclock\" needs epoch, the instant the loop began (RFC 3339)", at: value.location) }
        if playback.loop != .playlist { reader.error("mode", "\"wallclock\" needs [playback] loop = \"playlist\"", at: value.location) }
        if playback.shuffle { reader.error("mode", "\"wallclock\" needs the playlist in its order: [playback] shuffle = false", at: value.location) }
        if playback.rate != 1 { reader.error("mode", "\"wallclock\" plays at the wall clock's pace: [playback] rate = 1", at: value.location) }
    }
}
