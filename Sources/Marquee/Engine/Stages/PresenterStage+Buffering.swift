/// Waiting to minimize stalls (AVPlayer's `automaticallyWaitsToMinimizeStalling`):
/// a network item whose read-ahead runs dry stops time, with its last frame
/// up, until the read-ahead holds its forward buffer again (or the input's
/// end), instead of playing each frame as it trickles in and dropping the
/// late ones. The same wait fills the buffer once at the start of each
/// serial. Local files never wait: what starves them is a slow decode.
extension PresenterStage {
    /// How often the buffer is looked at while time stands still.
    static let bufferPoll: Duration = .milliseconds(50)

    /// Stops time for the buffer when the player waits to minimize stalls,
    /// a network item is being read, and its buffer is short. `stalled` is
    /// the item that ran dry (counted, and reported as a stall); nil at a start.
    func startBuffering(stalled item: PlayerItem?, now: HostTime) -> Bool {
        guard !engine.configuration.untimed else { return false }
        let started = engine.state.withLock { state -> Bool in
            guard state.waitsToMinimizeStalling, !state.buffering, let readAhead = state.readAhead, !readAhead.isFull
            else { return false }
            state.buffering = true
            if item != nil { state.stalled = true }
            return true
        }
        guard started else { return false }
        bufferingSince = now
        if let item {
            local.stalled = true
            item.update {
                $0.isPlaybackBufferEmpty = true
                $0.isPlaybackLikelyToKeepUp = false
            }
            engine.stats.update { $0.stalls += 1 }
            engine.post(.playbackStalled(item))
        }
        engine.refreshTimeControl()
        return true
    }

    /// The network item on screen when its read-ahead holds nothing and a
    /// decoded queue has run out too: the audio device would run dry and
    /// its clock stop in a moment, and video crawl after it.
    func ranDry() -> PlayerItem? {
        guard !local.firstAfterStart, !local.stalled, let item = local.last?.frame.segment.item,
              let readAhead = engine.state.withLock({ $0.readAhead }), readAhead.isDry else { return nil }
        let audioOut = engine.configuration.audioOutput != nil && local.last?.frame.segment.hasAudio == true
        return engine.videoQueue.isEmpty || (audioOut && engine.audioQueue.isEmpty) ? item : nil
    }

    /// Time stands still: play on once the read-ahead is full (or gone: the
    /// item ended, failed or changed), else look again shortly.
    func waitForBuffer(now: HostTime) -> StageWake {
        let readAhead = engine.state.withLock { $0.readAhead }
        let item = local.last?.frame.segment.item
        guard let readAhead, !readAhead.isFull else {
            engine.state.withLock { $0.buffering = false }
            if let since = bufferingSince, local.stalled {
                engine.stats.update { $0.stalledSeconds += (now - since).secondsDouble }
            }
            bufferingSince = nil
            // The item's flags stay those of the wait until the next frame is
            // on screen (`recordPresented`), when time control says playing
            // too: a status read in between never has waiting and likely to
            // keep up at once.
            engine.refreshTimeControl()
            engine.signals.raiseAll()
            return .now
        }
        item?.update {
            $0.isPlaybackBufferEmpty = readAhead.level.seconds == 0 && engine.videoQueue.isEmpty
            $0.isPlaybackLikelyToKeepUp = false
        }
        return Self.earlier(idle(now: now), .at(now + Self.bufferPoll))
    }

    /// The item's buffer flags after a frame: a network item is likely to
    /// keep up while its read-ahead is full, a local one while frames are queued.
    func updateBufferState(of item: PlayerItem) {
        let queued = engine.videoQueue.count
        let readAhead = engine.state.withLock { $0.readAhead }
        item.update {
            $0.isPlaybackBufferEmpty = queued == 0 && (readAhead?.level.seconds ?? 0) == 0
            $0.isPlaybackLikelyToKeepUp = readAhead?.isFull ?? (queued >= 2)
        }
    }
}
