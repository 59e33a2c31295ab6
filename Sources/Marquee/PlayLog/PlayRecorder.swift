import Dispatch
import MarqueeCore
import Synchronization

/// Turns a player's events into play log lines (`PlayRecord`s in a
/// `PlayLogFile`): one line per showing of an item, written when it ends.
///
/// A showing starts when the item becomes the current one
/// (`currentItemChanged`: its first frame is on screen, or a command chose
/// it) and ends when:
/// - it plays to its end (`didPlayToEnd`): `end`, or `error` when the pass
///   failed (`failedToPlayToEnd`, or the item failed). Each loop pass of one
///   item is a showing of its own, as proof-of-play systems count plays: the
///   next pass starts where this one ended.
/// - another item takes the screen without the item having ended: the
///   reason set in `nextEndReason` before the change (`command`,
///   `schedule`), else `error` after a failure, else `command` (something
///   asked for the change without saying why).
/// - `end(reason:)` is called (`screen-off`, `shutdown`).
/// Pauses and seeks do not end a showing: its `seconds` includes them.
///
/// Thread-safe. `follow(_:)` delivers the player's events on the recorder's
/// own queue, where each line is written and fdatasynced: the player never
/// waits for the disk. A line that cannot be written is one warning (not
/// repeated while the same failure goes on) and playback goes on.
public final class PlayRecorder: Sendable {
    public let file: PlayLogFile
    private let wallClock: any WallClock
    private let hostClock: any HostClock
    private let warn: @Sendable (String) -> Void
    /// Where followed events are handled, in order; `end(reason:)` waits on it.
    private let queue = DispatchQueue(label: "marquee.playlog")
    private let state: Mutex<State>

    /// The showing on screen now.
    private struct Showing {
        let item: PlayerItem
        let playlist: String?
        let start: WallTime
        let startHost: HostTime
        /// Begun by the previous pass's end: the item's next loop pass, unless
        /// another item takes the screen at once (then it never showed).
        let followsPass: Bool
    }

    private struct State {
        var showing: Showing?
        var playlist: String?
        let display: String
        var nextEndReason: PlayEnd?
        /// Items with a failed pass or status that has not been logged yet.
        var failed: [PlayerItem] = []
        /// The last warning written, so one failure going on is said once.
        var lastWarning: String?
        var lineWritten: (@Sendable () -> Void)?
    }

    /// - Parameters:
    ///   - display: what the lines name as the display (`get display`'s text).
    ///   - wallClock: the time of day the lines carry; `hostClock`: the
    ///     monotonic time `seconds` is measured on.
    ///   - warn: one line for a write that failed; called on the recorder's queue.
    public init(file: PlayLogFile, display: String, wallClock: any WallClock = SystemWallClock(),
                hostClock: any HostClock = MonotonicClock(), warn: @escaping @Sendable (String) -> Void) {
        self.file = file
        self.wallClock = wallClock
        self.hostClock = hostClock
        self.warn = warn
        state = Mutex(State(display: display))
    }

    /// Called on the recorder's queue after each line is on disk (a
    /// publisher that sends the file's lines on); replaces the previous one.
    public func onLineWritten(_ body: (@Sendable () -> Void)?) {
        state.withLock { $0.lineWritten = body }
    }

    /// The named playlist playing, for the showings that start from now on;
    /// nil for the default playlist. A scheduler sets it before it switches.
    public var playlist: String? {
        get { state.withLock { $0.playlist } }
        set { state.withLock { $0.playlist = newValue } }
    }

    /// Why the item on screen is about to give way, for the next
    /// `currentItemChanged`: set it just before telling the player (a control
    /// before `next`, a scheduler before switching playlists), and back to nil
    /// when the player refused. Used once; an item that plays to its end is
    /// `end` whatever it says.
    public var nextEndReason: PlayEnd? {
        get { state.withLock { $0.nextEndReason } }
        set { state.withLock { $0.nextEndReason = newValue } }
    }

    /// Feeds this recorder `player`'s events, in order, on its own queue.
    /// - Returns: the handler's token, for `removeEventHandler`.
    @discardableResult
    public func follow(_ player: Player) -> EventHandlerToken {
        player.addEventHandler(queue: queue) { [self] event in handle(event) }
    }

    /// One player event, in the order the player posted it. Writes a line
    /// when a showing ends (blocking the calling thread until it is on disk).
    public func handle(_ event: PlayerEvent) {
        let now = (wallClock.now(), hostClock.now())
        let ended = state.withLock { state -> PlayRecord? in
            switch event {
            case .currentItemChanged(let item):
                let explicit = state.nextEndReason
                state.nextEndReason = nil
                var record: PlayRecord?
                if let showing = state.showing {
                    if showing.followsPass, showing.item === item { return nil }
                    if !showing.followsPass {
                        let failed = Self.takeFailure(of: showing.item, from: &state)
                        record = Self.record(showing, ended: explicit ?? (failed ? .error : .command), at: now, display: state.display)
                    }
                }
                state.showing = item.map { Showing(item: $0, playlist: state.playlist, start: now.0, startHost: now.1, followsPass: false) }
                return record
            case .didPlayToEnd(let item):
                guard let showing = state.showing, showing.item === item else { return nil }
                let failed = Self.takeFailure(of: item, from: &state)
                state.showing = Showing(item: item, playlist: state.playlist, start: now.0, startHost: now.1, followsPass: true)
                return Self.record(showing, ended: failed ? .error : .end, at: now, display: state.display)
            case .failedToPlayToEnd(let item, _), .itemStatusChanged(let item, .failed):
                if !state.failed.contains(where: { $0 === item }) { state.failed.append(item) }
                return nil
            case .playbackFinished:
                // The last pass has its line; nothing follows it.
                guard let showing = state.showing else { return nil }
                state.showing = nil
                return showing.followsPass ? nil : Self.record(showing, ended: .end, at: now, display: state.display)
            default:
                return nil
            }
        }
        if let ended { write(ended) }
    }

    /// Ends the showing on screen now with `reason` (the screen turned off,
    /// the process stopping), after every followed event already posted has
    /// been handled; the next `currentItemChanged` starts a new one. Not to
    /// be called on the recorder's queue (from an event handler it runs).
    public func end(reason: PlayEnd) {
        queue.sync {
            let now = (wallClock.now(), hostClock.now())
            let ended = state.withLock { state -> PlayRecord? in
                defer { state.showing = nil }
                return state.showing.map { Self.record($0, ended: reason, at: now, display: state.display) }
            }
            if let ended { write(ended) }
        }
    }

    private func write(_ record: PlayRecord) {
        do throws(PlayLogError) {
            try file.append(record)
            let written = state.withLock { state in
                state.lastWarning = nil
                return state.lineWritten
            }
            written?()
        } catch {
            let line = "\(error); the line for \(record.item) is lost, playback goes on"
            let repeated = state.withLock { state -> Bool in
                defer { state.lastWarning = "\(error)" }
                return state.lastWarning == "\(error)"
            }
            if !repeated { warn(line) }
        }
    }

    /// Whether `item` had a failure not yet logged; forgets it.
    private static func takeFailure(of item: PlayerItem, from state: inout State) -> Bool {
        guard let index = state.failed.firstIndex(where: { $0 === item }) else { return false }
        state.failed.remove(at: index)
        return true
    }

    private static func record(_ showing: Showing, ended: PlayEnd, at now: (WallTime, HostTime), display: String) -> PlayRecord {
        let seconds = Double(now.1.nanoseconds - showing.startHost.nanoseconds) / 1e9
        return PlayRecord(item: showing.item.asset.source, playlist: showing.playlist, display: display,
                          start: showing.start.rfc3339, end: now.0.rfc3339, seconds: (seconds * 1000).rounded() / 1000, ended: ended)
    }
}
