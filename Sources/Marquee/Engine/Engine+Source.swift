import Foundation
import MarqueeFFmpeg

/// The source thread: opens items, reads and decodes them, and feeds the
/// queues, looking ahead across loop passes and playlist items.
extension Engine {
    private enum SourceCommand {
        case stop
        case start(StartRequest)
        case run(serial: Int)
    }

    func runSource() {
        var source: ItemSource?
        var serial = -1
        var segmentID = 0
        var finished = true
        while true {
            let command = state.withLock { state -> SourceCommand in
                if state.stopped { return .stop }
                if let start = state.start {
                    state.start = nil
                    return .start(start)
                }
                return .run(serial: state.serial)
            }
            switch command {
            case .stop:
                return
            case .start(let request):
                serial = request.serial
                segmentID += 1
                if source?.item !== request.item { source = nil }
                source = openPlayable(startingWith: request.item, reusing: source, serial: serial)
                finished = source == nil
                guard let current = source else { endOfPlayback(serial: serial); continue }
                do {
                    let time = current.item === request.item ? request.time : .zero
                    _ = try current.start(at: time, timelineStart: request.timelineStart, segmentID: segmentID,
                                          exact: request.exact)
                } catch {
                    fail(current.item, error)
                    source = nil
                    finished = true
                    endOfPlayback(serial: serial)
                }
                continue
            case .run(let current):
                if current != serial || finished || source == nil {
                    Thread.sleep(forTimeInterval: 0.005)
                    continue
                }
            }
            guard let reading = source else { continue }
            do {
                if try reading.step(serial: serial, emit: { push($0, serial: serial) }) { continue }
                segmentID += 1
                source = try nextAfterPass(of: reading, serial: serial, segmentID: segmentID)
            } catch {
                post(.failedToPlayToEnd(reading.item, error))
                stats.update { $0.decodeErrors += 1 }
                segmentID += 1
                source = next(after: reading, timelineStart: reading.timelineEnd ?? state.withLock { $0.timeline },
                              serial: serial, segmentID: segmentID)
            }
            if source == nil {
                finished = true
                endOfPlayback(serial: serial)
            }
        }
    }

    /// At the end of a pass: loop the same item without a flush, or drain and
    /// move to the next item, placed right after this one on the timeline.
    private func nextAfterPass(of source: ItemSource, serial: Int, segmentID: Int) throws -> ItemSource? {
        if itemAfter(source.item, pass: source.pass) === source.item {
            noteStep(from: source.item, to: source.item)
            _ = try source.startNextPass(segmentID: segmentID)
            return source
        }
        // Video switched to software at the very end: the input was rewound, read it again.
        guard try source.drain(serial: serial, emit: { push($0, serial: serial) }) else { return source }
        var end = source.timelineEnd ?? state.withLock { $0.timeline }
        if configuration.betweenItems != .cut, itemAfter(source.item, pass: source.pass) != nil {
            source.emitPause(configuration.betweenItems, audioFormat: configuration.audioOutput?.format,
                             serial: serial, emit: { push($0, serial: serial) })
            end += configuration.betweenItems.seconds
        }
        return next(after: source, timelineStart: end, serial: serial, segmentID: segmentID)
    }

    private func next(after source: ItemSource, timelineStart: Double, serial: Int, segmentID: Int) -> ItemSource? {
        guard let following = itemAfter(source.item, pass: source.pass) else { return nil }
        guard let opened = openPlayable(startingWith: following, reusing: following === source.item ? source : nil, serial: serial) else {
            return nil
        }
        noteStep(from: source.item, to: opened.item)
        do {
            _ = try opened.start(at: .zero, timelineStart: timelineStart, segmentID: segmentID, exact: false)
            return opened
        } catch {
            fail(opened.item, error)
            return nil
        }
    }

    /// Opens `item`, or the first item after it that opens: a broken item is
    /// marked failed, reported, and skipped so the show goes on.
    private func openPlayable(startingWith item: PlayerItem, reusing existing: ItemSource?, serial: Int) -> ItemSource? {
        if let existing, existing.item === item { return existing }
        var candidate: PlayerItem? = item
        var tried: [ObjectIdentifier] = []
        while let current = candidate, !tried.contains(ObjectIdentifier(current)), state.withLock({ $0.serial == serial && !$0.stopped }) {
            tried.append(ObjectIdentifier(current))
            do {
                var opening = true
                let source = try ItemSource(item: current, audioFormat: configuration.audioOutput?.format,
                                            videoThreads: configuration.videoThreads, hardware: configuration.hardwareDecoding,
                                            onSoftwareFallback: { [unowned self] reason in
                    softwareFallback(current, reason: reason, atOpen: opening)
                })
                opening = false
                post(.itemStatusChanged(current, .readyToPlay))
                if let decoder = source.decoderName { stats.update { $0.decoder = decoder } }
                stats.update { $0.hwdec = source.decoderKind?.rawValue }
                return source
            } catch {
                fail(current, error)
                candidate = itemAfter(current)
            }
        }
        return nil
    }

    /// Video of `item` is decoded in software from now on: counted, and
    /// reported as one event (a set-up reason only the first time it occurs).
    private func softwareFallback(_ item: PlayerItem, reason: String, atOpen: Bool) {
        stats.update {
            $0.hwdec = VideoDecoderKind.software.rawValue
            $0.hwdecFallbacks += 1
        }
        if atOpen, !reportedFallbacks.withLock({ $0.insert(reason).inserted }) { return }
        post(.videoDecodingFellBack(item, reason: reason))
    }

    private func fail(_ item: PlayerItem, _ error: any Error) {
        let sendable = error
        item.markFailed(sendable)
        post(.itemStatusChanged(item, .failed))
    }

    private func push(_ output: ItemSource.Output, serial: Int) {
        let stillWanted = { [unowned self] in state.withLock { $0.serial == serial && !$0.stopped } }
        switch output {
        case .video(let frame):
            videoQueue.push(.frame(frame), cost: 1, while: stillWanted)
        case .audio(let audio):
            guard configuration.audioOutput != nil else { return }
            // Audio may run past its bound while the presenter has no frame at
            // all: a paused seek (the audio writer is not consuming) must still
            // get its first picture, whatever the file's interleaving.
            audioQueue.push(.audio(audio), cost: audio.buffer.duration.seconds, while: stillWanted,
                            mayOverflow: { [unowned self] in audio.segment.hasVideo && videoQueue.isEmpty })
        }
    }

    private func endOfPlayback(serial: Int) {
        videoQueue.push(.end(serial: serial))
        if configuration.audioOutput != nil { audioQueue.push(.end(serial: serial)) }
    }

    func post(_ event: PlayerEvent) { events.post(event) }
}
