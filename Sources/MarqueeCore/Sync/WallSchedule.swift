/// A looping playlist laid on the wall clock (`[sync] mode = "wallclock"`):
/// at wall time t the playlist is `(t - epoch) mod L` into its loop, L the
/// sum of its items' durations. Every player with the same playlist and
/// epoch shows the same frame at the same instant, whenever it joined.
public struct WallSchedule: Sendable, Equatable {
    /// Seconds since 1970-01-01T00:00:00Z at which the loop's first pass began.
    public let epoch: Double
    /// Each item's length in seconds, in playlist order.
    public let durations: [Double]
    /// Where each item starts in the loop, seconds.
    public let starts: [Double]
    /// The loop's length, seconds.
    public let length: Double

    /// nil without items, or with an item whose length is not a positive number.
    public init?(epoch: Double, durations: [Double]) {
        guard !durations.isEmpty, epoch.isFinite, durations.allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        self.epoch = epoch
        self.durations = durations
        var starts: [Double] = [], total = 0.0
        for duration in durations {
            starts.append(total)
            total += duration
        }
        self.starts = starts
        length = total
    }

    /// The item up at wall time `t` and how far into it, in seconds.
    public func position(at t: Double) -> (index: Int, offset: Double) {
        var into = (t - epoch).truncatingRemainder(dividingBy: length)
        if into < 0 { into += length }
        // The last start at or before `into` (a binary search: playlists can be long).
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= into { low = middle } else { high = middle - 1 }
        }
        return (low, min(into - starts[low], durations[low]))
    }

    /// The wall time at which item `index` shows `itemTime`, in the loop
    /// pass whose occurrence is nearest to `near`.
    public func due(index: Int, itemTime: Double, near: Double) -> Double {
        let inLoop = starts[index] + itemTime
        let passes = ((near - epoch - inLoop) / length).rounded()
        return epoch + passes * length + inLoop
    }
}
