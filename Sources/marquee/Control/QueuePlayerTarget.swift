import Marquee
import MarqueeControl
import Synchronization

/// The running `QueuePlayer` as the control commands see it.
///
/// Seeks are started and not awaited (a command must not stall the channel
/// it came on); until the new position is on screen, `status` reports the
/// seek's target, so `seek +5` twice in a row moves 10 s.
final class QueuePlayerTarget: PlaybackTarget {
    let player: QueuePlayer
    private struct State {
        /// The rate playback resumes at; the player reads 0 while paused.
        var rate: Double
        var seekSerial = 0
        var pendingSeek: (item: ObjectIdentifier, seconds: Double, serial: Int)?
    }
    private let state: Mutex<State>

    init(player: QueuePlayer, rate: Double) {
        self.player = player
        state = Mutex(State(rate: rate))
    }

    var status: PlaybackStatus {
        let (items, position) = player.playlist
        let item = player.currentItem
        let (rate, pending) = state.withLock { ($0.rate, $0.pendingSeek) }
        var time = player.currentTime().seconds
        if let pending, let item, pending.item == ObjectIdentifier(item) { time = pending.seconds }
        let duration = item?.duration
        let state: PlaybackStatus.State = switch player.status {
        case .playing: .playing
        case .failed: .failed
        case .paused, .unknown: position == nil ? .finished : .paused
        }
        return PlaybackStatus(state: state, index: position, count: items.count, source: item?.asset.source,
                              time: time, duration: duration?.isNumeric == true ? duration!.seconds : nil,
                              rate: rate, volume: Double(player.volume), muted: player.isMuted, loop: player.loopMode)
    }

    func play() {
        let rate = state.withLock { $0.rate }
        if rate != 1 { player.rate = rate } else { player.play() }
    }

    func pause() { player.pause() }

    func seek(to seconds: Double) {
        // Issued here, in command order; only the wait for its frame is a Task.
        guard let item = player.currentItem,
              let completion = player.startSeek(to: MediaTime(seconds: seconds, preferredTimescale: 1000), exact: true) else { return }
        let serial = state.withLock { state -> Int in
            state.seekSerial += 1
            state.pendingSeek = (ObjectIdentifier(item), seconds, state.seekSerial)
            return state.seekSerial
        }
        Task {
            _ = await completion()
            state.withLock { state in
                if state.pendingSeek?.serial == serial { state.pendingSeek = nil }
            }
        }
    }

    func playItem(at index: Int) -> Bool {
        guard player.playItem(at: index) else { return false }
        // The item keeps its old time until its first frame shows; a seek to
        // its start makes `status` say 0 meanwhile (and costs one extra restart).
        seek(to: 0)
        return true
    }

    func setLoopMode(_ mode: LoopMode) {
        player.loopMode = mode
        // A pass limit from --loops belongs to the loop mode it was given with.
        if mode != .item { player.loopPasses = nil }
    }

    func setRate(_ rate: Double) {
        state.withLock { $0.rate = rate }
        player.rate = rate
    }

    func setVolume(_ volume: Double) { player.volume = Float(volume) }

    func setMuted(_ muted: Bool) { player.isMuted = muted }
}
