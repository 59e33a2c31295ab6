import Foundation
import MarqueeFFmpeg

/// The presenter thread: shows each frame when the master clock says it is
/// due, drops frames that are too late, and leads segment changes for video.
extension Engine {
    private struct PresenterState {
        var serial = -1
        var pending: VideoEntry?
        var last: (frame: TimelineFrame, display: HostTime, audioWritten: Int)?
        var firstAfterStart = true
        /// Untimed mode: where the timeline was anchored to the host clock.
        var untimedAnchor: (timeline: Double, host: HostTime)?
        /// When we began waiting for the audio clock to start.
        var audioWaitSince: HostTime?
        var playingBefore = false
        /// The last video output error reported, so a repeating one is said once.
        var lastOutputError: String?
        /// A stall was reported and nothing has been presented since.
        var stalled = false
    }

    func runPresenter() {
        var local = PresenterState()
        let hostClock = configuration.hostClock
        while true {
            let (stopped, serial, playing, rate) = state.withLock { ($0.stopped, $0.serial, $0.playing, $0.rate) }
            if stopped { return }
            if serial != local.serial {
                let pending = local.pending.flatMap { $0.serial >= serial ? $0 : nil }
                local = PresenterState(serial: serial, pending: pending, last: local.last.map { ($0.frame, $0.display, $0.audioWritten) })
                local.firstAfterStart = true
            }
            if playing != local.playingBefore {
                local.playingBefore = playing
                clock.setPaused(!playing, at: hostClock.now())
                local.untimedAnchor = nil
            }
            // Paused, the first frame after a seek is still shown (scrubbing).
            guard playing || local.firstAfterStart else {
                configuration.videoOutput?.maintain()
                Thread.sleep(forTimeInterval: 0.005)
                continue
            }
            if local.pending == nil { local.pending = videoQueue.pop(timeout: 0.02) }
            guard let entry = local.pending else {
                configuration.videoOutput?.maintain()
                noteStarvation(&local)
                continue
            }
            // Older serial: stale, drop it. Newer: the state read above is
            // already out of date; keep the entry for the next turn.
            guard entry.serial == serial else {
                if entry.serial < serial { local.pending = nil }
                continue
            }
            switch entry {
            case .end:
                local.pending = nil
                finishVideo(local.last?.frame, serial: serial, rate: rate)
            case .frame(let frame):
                if schedule(frame, &local, rate: rate, hostClock: hostClock) {
                    local.pending = nil
                }
            }
        }
    }

    /// Nothing to show while playing: the buffer is empty. Reported once per
    /// stall (the source is behind: a slow network or a slow decode).
    private func noteStarvation(_ local: inout PresenterState) {
        guard let last = local.last, !local.stalled, !local.firstAfterStart else { return }
        let item = last.frame.segment.item
        item.update {
            $0.isPlaybackBufferEmpty = true
            $0.isPlaybackLikelyToKeepUp = false
        }
        // A short gap in a real-time run is normal between decodes; only a frame's worth of starvation is a stall.
        guard configuration.hostClock.now() - last.display > .nanoseconds(Int64(last.frame.duration * 2e9)) else { return }
        local.stalled = true
        post(.playbackStalled(item))
    }

    /// Presents `frame` if it is due (or drops it if late). Returns false when
    /// it must wait a little longer; the loop then checks for commands and retries.
    private func schedule(_ frame: TimelineFrame, _ local: inout PresenterState, rate: Double, hostClock: any HostClock) -> Bool {
        let now = hostClock.now()
        var target = now
        if configuration.untimed {
            let anchor = local.untimedAnchor ?? (frame.timeline, now)
            local.untimedAnchor = anchor
            target = anchor.host + .nanoseconds(Int64((frame.timeline - anchor.timeline) / rate * 1e9))
        } else if local.firstAfterStart || !state.withLock({ $0.playing }) {
            if !frame.segment.hasAudio { clock.set(position: frame.timeline, at: now, serial: frame.serial) }
        } else {
            guard let position = masterPosition(for: frame, now: now, local: &local) else { return false }
            let refresh = configuration.videoOutput?.refreshInterval?.secondsDouble
            let decision = FrameTiming.decide(pts: frame.timeline, duration: frame.duration, clock: position, rate: rate,
                                              refreshInterval: refresh, isLastQueued: videoQueue.isEmpty)
            switch decision {
            case .drop:
                stats.update { $0.framesDropped += 1 }
                return true
            case .present(let lead):
                // Hand the frame over half a refresh early so the vblank it
                // lands on is the one nearest its due time.
                let margin = (refresh ?? 0.002) / 2
                if lead > margin {
                    hostClock.sleep(until: now + .nanoseconds(Int64(min(lead - margin, 0.02) * 1e9)))
                    return false
                }
            }
        }
        present(frame, at: target, &local, rate: rate)
        return true
    }

    /// The master clock: the audio clock when this segment has audio, else
    /// the monotonic clock anchored at the last frame. Nil while waiting for
    /// audio to start (up to a limit, after which video goes on alone).
    private func masterPosition(for frame: TimelineFrame, now: HostTime, local: inout PresenterState) -> Double? {
        if let position = clock.position(at: now, serial: frame.serial) {
            local.audioWaitSince = nil
            return position
        }
        guard frame.segment.hasAudio else {
            clock.set(position: frame.timeline, at: now, serial: frame.serial)
            return frame.timeline
        }
        let since = local.audioWaitSince ?? now
        local.audioWaitSince = since
        if now - since > .milliseconds(500) {
            clock.set(position: frame.timeline, at: now, serial: frame.serial)
            return frame.timeline
        }
        Thread.sleep(forTimeInterval: 0.002)
        return nil
    }

    private func present(_ timed: TimelineFrame, at target: HostTime, _ local: inout PresenterState, rate: Double) {
        var display = target
        var frame = timed
        if let output = configuration.videoOutput {
            do {
                if let hardware = frame.frame.storage as? any DMABufStorage {
                    if output.canScanOut(frame.frame, dmabuf: hardware.dmabuf) {
                        // Zero copy: the output imports the dmabufs and keeps the frame until scanout ends.
                        display = try output.present(frame.frame, at: target)
                        recordPresented(frame, display: display, &local, rate: rate)
                        return
                    }
                    frame.frame = try hardware.download(frame.frame)
                    stats.update { $0.framesDownloaded += 1 }
                }
                if let direct = output as? any RenderTargetOutput {
                    let rendered = try direct.nextTarget(for: frame.frame)
                    let source = rendered.crop.flatMap { frame.frame.cropped(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
                    try converter.convert(source ?? frame.frame, into: rendered.planes, format: rendered.format,
                                          width: rendered.width, height: rendered.height)
                    display = try direct.present(rendered, of: frame.frame, at: target)
                } else {
                    display = try output.present(convertIfNeeded(frame.frame, for: output), at: target)
                }
            } catch {
                // The output keeps its last frame; count it, say why once, go on with the next one.
                stats.update { $0.framesDropped += 1 }
                let message = "\(error)"
                if local.lastOutputError != message {
                    local.lastOutputError = message
                    post(.videoOutputFailed(error))
                }
                return
            }
        }
        recordPresented(frame, display: display, &local, rate: rate)
    }

    /// Bookkeeping once `frame` is on screen: seams, stats, observers, buffer state.
    private func recordPresented(_ frame: TimelineFrame, display: HostTime, _ local: inout PresenterState, rate: Double) {
        let audioClock = frame.segment.hasAudio ? clock.position(at: display, serial: frame.serial) : nil
        let written = stats.snapshot.audioFramesWritten
        if let last = local.last, last.frame.serial == frame.serial, last.frame.segment.id != frame.segment.id {
            let held = (display - last.display).secondsDouble - last.frame.duration / rate
            stats.recordSeam(SeamRecord(fromItem: itemIndex(last.frame.segment.item), toItem: itemIndex(frame.segment.item),
                                        gapMs: max(held, 0) * 1000, audioFramesAcross: written - last.audioWritten))
            crossSeam(from: last.frame.segment, to: frame.segment)
        }
        stats.recordPresented(PresentationRecord(
            item: itemIndex(frame.segment.item), pass: frame.segment.pass, pts: frame.itemTime.seconds,
            displayTime: display.seconds, avOffsetMs: audioClock.map { ($0 - frame.timeline) * 1000 },
            checksum: stats.keepsLog ? frame.frame.checksum() : 0))
        presented(frame.segment, itemTime: frame.itemTime, timeline: frame.timeline, serial: frame.serial)
        if local.firstAfterStart { observers.playbackStateChanged(at: frame.itemTime) }
        local.last = (frame, display, written)
        local.firstAfterStart = false
        local.stalled = false
        let buffered = videoQueue.count
        frame.segment.item.update {
            $0.isPlaybackBufferEmpty = buffered == 0
            $0.isPlaybackLikelyToKeepUp = buffered >= 2
        }
    }

    /// End of playback on the video side: let the last frame run its time, then report.
    private func finishVideo(_ last: TimelineFrame?, serial: Int, rate: Double) {
        if let last, !configuration.untimed {
            configuration.hostClock.sleep(until: configuration.hostClock.now() + .nanoseconds(Int64(last.duration / rate * 1e9)))
        }
        try? configuration.videoOutput?.flush()
        // A segment without video is ended by the audio writer.
        guard last?.segment.hasVideo ?? true else { return }
        stageFinished(.video, serial: serial, segment: last?.segment)
    }

    private func convertIfNeeded(_ frame: VideoFrame, for output: any VideoOutput) throws -> VideoFrame {
        if output.acceptedFormats.contains(frame.pixelFormat) { return frame }
        guard let format = output.acceptedFormats.first else { return frame }
        return try converter.convert(frame, to: format)
    }
}
