/// Everything a player asks of its engine, as values: the only way state
/// that the stages read is changed from outside them.
enum EngineCommand: Sendable {
    /// Play at the default rate.
    case play
    case pause
    /// Play at this rate, in `PlaybackRate.range` or, backwards, its
    /// negation (pause for zero is `.pause`).
    case setRate(Double)
    /// Pause and show the frame this many frames on (back, below zero)
    /// from the one on screen; an item's first and last frames are as far as it goes.
    case step(Int)
    case setDefaultRate(Double)
    case setVolume(Float)
    case setMuted(Bool)
    case setWaitsToMinimizeStalling(Bool)
    case setActionAtItemEnd(ActionAtItemEnd)
    case setLoopMode(LoopMode)
    case setLoopPasses(Int?)
    /// Seek in the current item (clamped to it); keyframe or exact.
    case seek(MediaTime, exact: Bool)
    case replaceCurrentItem(PlayerItem?)
    case advanceToNextItem
    case insert(PlayerItem, after: PlayerItem?)
    case remove(PlayerItem)
    case removeAllItems
    /// Jump to a position of `played + items`.
    case playItem(at: Int)
    /// The item at this place of the playlist (played items, then the
    /// queue), from this time in it, exactly (a wall schedule's correction).
    case jump(toItem: Int, at: MediaTime)
    /// Follow this wall schedule (nil: the player's own clock again).
    case followWallClock(WallSchedule?)
    case goBack
    /// Keep the current item and make these what follows it.
    case replaceUpcomingItems([PlayerItem])
    /// Keep the current item between these; with none current, start the first while playing.
    case replacePlaylist(played: [PlayerItem], upcoming: [PlayerItem])
    /// Drop the whole queue and play these from the first, now.
    case replaceQueue([PlayerItem])
    /// Off pauses (and remembers whether it was playing); on plays again
    /// if it was. The presenter switches the output's screen.
    case setScreenPower(Bool)
}

/// What a command did, for the caller.
enum CommandOutcome: Sendable {
    case done
    /// The command could not apply (no such item, nothing played before).
    case refused
    /// A restart on this serial: it completes when a frame of it is presented.
    case restarted(serial: Int)
}

extension Engine {
    /// Applies `command` under the state lock, then does what follows from it
    /// outside the lock (stale data dropped, events, observers) and wakes
    /// every stage to look at the new state.
    @discardableResult
    func send(_ command: EngineCommand) -> CommandOutcome {
        var effects = Effects()
        let outcome = state.withLock { apply(command, to: &$0, effects: &effects) }
        if let restart = effects.restart {
            clock.invalidate()
            videoQueue.removeAll { $0.serial < restart.serial }
            audioQueue.removeAll { $0.serial < restart.serial }
            restart.superseded.forEach { $0.resume(returning: false) }
        }
        if let rate = effects.clockRate { clock.setRate(rate, at: configuration.hostClock.now()) }
        if let time = effects.playbackStateChangedAt { observers.playbackStateChanged(at: time) }
        if let jump = effects.timeJump {
            observers.timeJumped(to: jump.time)
            post(.timeJumped(jump.item, to: jump.time))
        }
        if let item = effects.currentItemChanged { post(.currentItemChanged(item)) }
        if let rate = effects.rateChanged { post(.rateChanged(rate)) }
        refreshTimeControl()
        signals.raiseAll()
        return outcome
    }

    /// What a command causes besides its change to the state.
    private struct Effects {
        var restart: (serial: Int, superseded: [CheckedContinuation<Bool, Never>])?
        var clockRate: Double?
        var playbackStateChangedAt: MediaTime?
        var timeJump: (item: PlayerItem, time: MediaTime)?
        var currentItemChanged: PlayerItem??
        var rateChanged: Double?
    }

    private func apply(_ command: EngineCommand, to state: inout State, effects: inout Effects) -> CommandOutcome {
        switch command {
        case .play:
            state.rate = state.defaultRate
            effects.clockRate = state.rate
            return start(in: &state, effects: &effects)
        case .pause:
            state.resumesWhenScreenOn = false
            pause(in: &state, effects: &effects)
        case .setRate(let rate):
            state.rate = rate
            effects.clockRate = abs(rate)
            return start(in: &state, effects: &effects)
        case .setScreenPower(let on):
            guard on != state.screenOn else { return .done }
            state.screenOn = on
            if !on {
                state.resumesWhenScreenOn = state.playing
                if state.playing { pause(in: &state, effects: &effects) }
            } else if state.resumesWhenScreenOn {
                effects.clockRate = abs(state.rate)
                return start(in: &state, effects: &effects)
            }
        case .step(let count):
            guard count != 0, let item = state.queue.current else { return .refused }
            state.resumesWhenScreenOn = false
            if state.playing {
                state.playing = false
                effects.rateChanged = 0
            }
            effects.playbackStateChangedAt = item.currentTime()
            // Forwards the frame on screen is the first read and the first passed over; backwards reading starts before it.
            return restart(item, at: position(of: item, in: state), exact: true, reversed: count < 0,
                           step: count > 0 ? count : -count - 1, in: &state, effects: &effects)
        case .setDefaultRate(let rate):
            state.defaultRate = rate
        case .setVolume(let volume):
            guard !volume.isNaN else { return .refused }
            state.volume = min(max(volume, 0), 1)
        case .setMuted(let muted):
            state.muted = muted
        case .setWaitsToMinimizeStalling(let waits):
            state.waitsToMinimizeStalling = waits
            if !waits { state.buffering = false }
        case .setActionAtItemEnd(let action):
            state.cursor.action = action
        case .setLoopMode(let loop):
            state.cursor.loop = loop
        case .setLoopPasses(let passes):
            state.cursor.passLimit = passes
        case .seek(let time, let exact):
            guard let item = state.queue.current, time.isNumeric else { return .refused }
            let duration = item.duration
            let clamped = max(.zero, duration.isNumeric ? min(time, duration) : time)
            effects.timeJump = (item, clamped)
            return restart(item, at: clamped, exact: exact, in: &state, effects: &effects)
        case .replaceCurrentItem(let item):
            state.queue.replaceCurrent(with: item)
            return restartCurrent(in: &state, effects: &effects)
        case .advanceToNextItem:
            state.queue.advance(loop: state.cursor.loop == .playlist ? .playlist : .none)
            return restartCurrent(in: &state, effects: &effects)
        case .insert(let item, let after):
            return state.queue.insert(item, after: after) ? .done : .refused
        case .remove(let item):
            let wasCurrent = state.queue.current === item
            state.queue.remove(item)
            if wasCurrent { return restartCurrent(in: &state, effects: &effects) }
        case .removeAllItems:
            state.queue.removeAll()
            return restartCurrent(in: &state, effects: &effects)
        case .playItem(let position):
            guard state.queue.jump(to: position) else { return .refused }
            return restartCurrent(in: &state, effects: &effects)
        case .jump(let position, let time):
            guard state.queue.jump(to: position), let item = state.queue.current, time.isNumeric else { return .refused }
            effects.timeJump = (item, time)
            return restart(item, at: max(.zero, time), exact: true, in: &state, effects: &effects)
        case .followWallClock(let schedule):
            state.wall = schedule
        case .goBack:
            guard state.queue.goBack() else { return .refused }
            return restartCurrent(in: &state, effects: &effects)
        case .replaceUpcomingItems(let items):
            let current = state.queue.current.map { [$0] } ?? []
            state.queue = PlayQueue(items: current + items.filter { item in !current.contains { $0 === item } })
        case .replacePlaylist(let played, let upcoming):
            guard let current = state.queue.current else {
                state.queue = PlayQueue(items: upcoming, played: played)
                // As AVQueuePlayer plays an item inserted into its empty queue while its rate is set.
                return state.playing ? restartCurrent(in: &state, effects: &effects) : .done
            }
            state.queue = PlayQueue(items: [current] + upcoming.filter { $0 !== current }, played: played.filter { $0 !== current })
        case .replaceQueue(let items):
            state.queue = PlayQueue(items: items)
            return restartCurrent(in: &state, effects: &effects)
        }
        return .done
    }

    /// Playing from here: an item nothing has read or shown yet (the first
    /// play, the next item after the end) is read from its start; otherwise
    /// playback goes on from where it is.
    /// A rate below zero reads backwards: from the item's end when it
    /// starts there, from the frame on screen when the direction changes.
    /// Playing turns a screen that is off on again: playback with nothing
    /// to see is no use on a sign, and a play button should bring the picture back.
    private func start(in state: inout State, effects: inout Effects) -> CommandOutcome {
        state.screenOn = true
        state.resumesWhenScreenOn = false
        state.playing = true
        effects.playbackStateChangedAt = state.presented?.item.currentTime() ?? .zero
        effects.rateChanged = state.rate
        let backwards = state.rate < 0
        guard let item = state.queue.current else { return .done }
        if item !== state.target?.item, item !== state.presented?.item {
            return restart(item, at: backwards ? .positiveInfinity : .zero, exact: false, reversed: backwards,
                           in: &state, effects: &effects)
        }
        if backwards != state.readsBackwards {
            return restart(item, at: position(of: item, in: state), exact: true, reversed: backwards, in: &state, effects: &effects)
        }
        return .done
    }

    private func pause(in state: inout State, effects: inout Effects) {
        state.playing = false
        effects.playbackStateChangedAt = state.presented?.item.currentTime() ?? .zero
        effects.rateChanged = 0
    }

    /// Where `item` is: a restart's target until a frame of it shows, then the frame on screen.
    private func position(of item: PlayerItem, in state: State) -> MediaTime {
        if let target = state.target, target.serial > state.completedSerial, target.item === item { return target.time }
        return item.currentTime()
    }

    /// The queue's current item changed: play it from its start (or stop reading if there is none).
    private func restartCurrent(in state: inout State, effects: inout Effects) -> CommandOutcome {
        effects.currentItemChanged = .some(state.queue.current)
        // Played backwards, an item starts at its end.
        return restart(state.queue.current, at: state.playing && state.rate < 0 ? .positiveInfinity : .zero, exact: false,
                       in: &state, effects: &effects)
    }

    /// Starts reading `item` at `time` on a new serial; stale data is dropped
    /// everywhere (in `send`) and pending seeks report that they were superseded.
    /// - Parameters:
    ///   - reversed: read backwards; nil reads backwards while playing at a negative rate.
    ///   - step: a step's frames passed over before the one shown.
    private func restart(_ item: PlayerItem?, at time: MediaTime, exact: Bool, reversed: Bool? = nil, step: Int? = nil,
                         in state: inout State, effects: inout Effects) -> CommandOutcome {
        state.serial += 1
        // A seek or a new item reads backwards only while playing backwards: paused, it shows the frame at the time.
        state.readsBackwards = reversed ?? (state.playing && state.rate < 0)
        state.finishedStages = []
        state.buffering = false
        let superseded = state.seekWaiters.map(\.continuation)
        state.seekWaiters.removeAll()
        // The clock restarts with the new serial, so any timeline position
        // works; continuing from the current one keeps it monotonic.
        state.start = item.map {
            StartRequest(serial: state.serial, item: $0, time: time, exact: exact, timelineStart: state.timeline,
                         reversed: state.readsBackwards, step: step)
        }
        state.target = item.map { item in
            let duration = item.duration
            return (state.serial, item, time.isPositiveInfinity ? (duration.isNumeric ? duration : .zero) : time)
        }
        effects.restart = (state.serial, superseded)
        return .restarted(serial: state.serial)
    }
}
