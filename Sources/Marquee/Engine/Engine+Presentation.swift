import FoundationEssentials

/// What the presenter and the audio stage share: moving from one segment to
/// the next (end notifications, current item, loop reseek), and the end of
/// playback. Whichever stage leads a segment calls these: video when the
/// segment has video, audio otherwise.
extension Engine {
    /// Presentation moved from `old` to `new` on the same serial.
    func crossSeam(from old: Segment, to new: Segment) {
        stats.update { $0.endNotifications += 1 }
        post(.didPlayToEnd(old.item))
        if old.item === new.item {
            post(.timeJumped(new.item, to: new.itemStart))
            observers.timeJumped(to: new.itemStart)
            return
        }
        state.withLock { state in
            // Items skipped as unplayable between the two leave the queue too.
            var guardCount = state.queue.items.count + state.queue.played.count
            while let current = state.queue.current, current !== new.item, guardCount > 0 {
                state.queue.advance(loop: state.cursor.loop)
                guardCount -= 1
            }
        }
        post(.currentItemChanged(new.item))
        observers.timeJumped(to: new.itemStart)
    }

    /// `stage` has presented everything of `serial`. Playback ends when every
    /// stage `segment` uses has finished, so neither stream is cut short.
    /// A seek waiting on `serial` completes here: nothing more of it will be
    /// presented (a seek past the end lands on the end).
    func stageFinished(_ stage: Stage, serial: Int, segment: Segment?) {
        completeSeeks(serial: serial)
        let done = state.withLock { state -> Bool in
            guard state.serial == serial else { return false }
            state.finishedStages.insert(stage)
            // Without a segment (nothing could be played) every stage must report.
            let audio = configuration.audioOutput != nil && (segment?.hasAudio ?? true)
            var needed: Set<Stage> = audio ? [.audio] : []
            if segment?.hasVideo ?? true { needed.insert(.video) }
            return needed.isSubset(of: state.finishedStages)
        }
        if done { reachEnd(of: segment) }
    }

    /// Presentation of `segment` reached the real end of playback.
    private func reachEnd(of segment: Segment?) {
        if let segment {
            stats.update { $0.endNotifications += 1 }
            post(.didPlayToEnd(segment.item))
        }
        let (advanced, time, unplayable) = state.withLock { state -> (Bool, MediaTime, (any Error)?) in
            state.playing = false
            let time = segment?.item.currentTime() ?? .zero
            // Nothing at all could be presented: the player has failed until an item plays.
            let unplayable = segment == nil ? state.lastItemError : nil
            guard state.cursor.advancesAtEnd, segment != nil else { return (false, time, unplayable) }
            state.queue.advance(loop: .none)
            return (true, time, unplayable)
        }
        observers.playbackStateChanged(at: time)
        if advanced { post(.currentItemChanged(state.withLock { $0.queue.current })) }
        post(.rateChanged(0))
        refreshTimeControl()
        if let unplayable { setStatus(.failed, error: unplayable) }
        post(.playbackFinished)
    }

    /// Records that `segment`'s item time `time` is now being presented.
    func presented(_ segment: Segment, itemTime: MediaTime, timeline: Double, serial: Int) {
        let first = state.withLock { state -> Bool in
            let first = state.presented == nil
            state.presented = segment
            state.timeline = timeline
            state.stalled = false
            return first
        }
        segment.item.update { $0.currentTime = itemTime }
        if first { post(.currentItemChanged(segment.item)) }
        observers.presented(itemTime)
        completeSeeks(serial: serial)
    }
}
