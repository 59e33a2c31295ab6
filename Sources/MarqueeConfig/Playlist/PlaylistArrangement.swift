/// Where the item playing now goes in a playlist whose contents changed
/// (a watched folder gained, lost or rewrote files): the items before it in
/// the new order count as played, the ones after it come next. So the show
/// goes on from where it is, and a dropped file plays when its turn in the
/// order comes (this pass when it sorts after the current one, else the
/// next pass of a looping playlist).
public struct PlaylistArrangement: Equatable, Sendable {
    /// What counts as played before the current item, in order.
    public var played: [String]
    /// What follows the current item, in order.
    public var upcoming: [String]
    /// Whether the current item keeps its place. False when its file is gone
    /// or was written again: it plays on (its file is open) and then leaves
    /// the playlist; a new file at its path is in `played`, for the next pass.
    public var keepsCurrent: Bool

    /// - Parameters:
    ///   - paths: the new playlist, in play order.
    ///   - previous: the playlist as it was, in play order (played items too).
    ///   - current: the position in `previous` of the item playing now; nil when none is.
    ///   - replaced: paths whose files were written again since `previous`.
    public init(_ paths: [String], previous: [String], current: Int?, replaced: Set<String>) {
        guard let current, previous.indices.contains(current) else {
            self.init(played: [], upcoming: paths, keepsCurrent: false)
            return
        }
        let path = previous[current]
        // The same file may be listed twice: find the same occurrence of it.
        let occurrence = previous[..<current].filter { $0 == path }.count
        let places = paths.indices.filter { paths[$0] == path }
        if let index = places.indices.contains(occurrence) ? places[occurrence] : places.last {
            let keeps = !replaced.contains(path)
            self.init(played: Array(paths[..<index]) + (keeps ? [] : [path]), upcoming: Array(paths[(index + 1)...]), keepsCurrent: keeps)
            return
        }
        // Gone: the split falls after the last item that came before it.
        let before = Set(previous[..<current])
        let split = (paths.lastIndex { before.contains($0) } ?? -1) + 1
        self.init(played: Array(paths[..<split]), upcoming: Array(paths[split...]), keepsCurrent: false)
    }

    public init(played: [String], upcoming: [String], keepsCurrent: Bool) {
        self.played = played
        self.upcoming = upcoming
        self.keepsCurrent = keepsCurrent
    }
}
