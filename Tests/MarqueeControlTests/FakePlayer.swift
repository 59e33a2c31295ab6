import MarqueeControl
import MarqueeCore
import Synchronization

/// A player that only keeps state, so every command's effect can be read
/// back exactly. Seeks land at once.
final class FakePlayer: PlaybackTarget {
    struct State {
        var playing = true
        var index: Int? = 0
        var count = 3
        var time = 10.0
        var duration: Double? = 60
        var rate = 1.0
        var volume = 1.0
        var muted = false
        var loop = LoopMode.none
        var screenOn = true
        /// Every call, in order, for checks on what a command did.
        var calls: [String] = []
    }

    let state = Mutex(State())

    var status: PlaybackStatus {
        state.withLock { state in
            var status = PlaybackStatus(state: state.index == nil ? .finished : state.playing ? .playing : .paused, index: state.index,
                                        count: state.count, source: state.index.map { "item\($0)" }, time: state.time,
                                        duration: state.duration, rate: state.rate, volume: state.volume, muted: state.muted, loop: state.loop)
            status.screenOn = state.screenOn
            return status
        }
    }

    func play() { state.withLock { $0.playing = true; $0.calls.append("play") } }
    func pause() { state.withLock { $0.playing = false; $0.calls.append("pause") } }
    func seek(to seconds: Double) { state.withLock { $0.time = seconds; $0.calls.append("seek \(seconds)") } }

    func playItem(at index: Int) -> Bool {
        state.withLock { state in
            guard (0..<state.count).contains(index) else { return false }
            state.index = index
            state.time = 0
            state.calls.append("item \(index)")
            return true
        }
    }

    func setLoopMode(_ mode: LoopMode) { state.withLock { $0.loop = mode; $0.calls.append("loop \(mode)") } }
    func setRate(_ rate: Double) throws(ControlError) { state.withLock { $0.rate = rate; $0.playing = true; $0.calls.append("rate \(rate)") } }
    func step(by count: Int) throws(ControlError) { state.withLock { $0.playing = false; $0.calls.append("step \(count)") } }
    func setVolume(_ volume: Double) { state.withLock { $0.volume = volume; $0.calls.append("volume \(volume)") } }
    func setMuted(_ muted: Bool) { state.withLock { $0.muted = muted; $0.calls.append("muted \(muted)") } }
    func setScreenPower(on: Bool) { state.withLock { $0.screenOn = on; $0.calls.append("screen \(on)") } }
    func setCaptions(_ choice: ControlCommand.CaptionsChoice) { state.withLock { $0.calls.append("captions \(choice)") } }
    func showText(_ text: String, seconds: Double) throws(ControlError) { state.withLock { $0.calls.append("show-text \(text) \(seconds)") } }
    func setOverlay(_ name: String, visible: Bool) throws(ControlError) {
        guard name == "logo" else { throw ControlError("overlay: no overlay '\(name)' (have: logo)") }
        state.withLock { $0.calls.append("overlay \(name) \(visible)") }
    }

    var calls: [String] { state.withLock { $0.calls } }

    func value(of property: PlayerProperty) -> JSONValue {
        if let value = statusValue(of: property) { return value }
        return switch property {
        case .playlist: .array((0..<state.withLock { $0.count }).map { .string("item\($0)") })
        case .stats: .object(["framesPresented": .integer(250)])
        case .display: .string("fake 640x480")
        default: .null
        }
    }
}
