import Foundation

/// The audio writer thread: applies volume and rate, writes to the audio
/// output (blocking on the device), and sets the master clock from the
/// device's reported delay after every write.
extension Engine {
    func runAudioWriter() {
        guard let output = configuration.audioOutput else { return }
        var serial = -1
        var paused = false
        var lastSegment: Segment?
        var pending: AudioEntry?
        var stretcher = TimeStretcher(format: output.format)
        while true {
            let (stopped, current, playing, rate, gain) = state.withLock {
                ($0.stopped, $0.serial, $0.playing, $0.rate, $0.muted ? Float(0) : $0.volume)
            }
            if stopped { return }
            if current != serial {
                output.discard()
                stretcher.reset()
                serial = current
            }
            if !playing {
                if !paused { output.pause(); paused = true }
                Thread.sleep(forTimeInterval: 0.005)
                continue
            }
            if paused { output.resume(); paused = false }
            guard let entry = pending ?? audioQueue.pop(timeout: 0.02) else { continue }
            pending = nil
            // A newer serial than the state read above: keep it for the next turn.
            if entry.serial > serial { pending = entry; continue }
            guard entry.serial == serial else { continue }
            switch entry {
            case .end:
                if rate != 1, let tail = stretcher.flush(rate: rate) { try? output.write(tail.scaled(by: gain)) }
                try? output.drain()
                stageFinished(.audio, serial: serial, segment: lastSegment)
            case .audio(let audio):
                if let previous = lastSegment, previous.id != audio.segment.id, !audio.segment.hasVideo {
                    crossSeam(from: previous, to: audio.segment)
                }
                lastSegment = audio.segment
                write(audio, to: output, stretcher: &stretcher, rate: rate, gain: gain)
            }
        }
    }

    private func write(_ audio: TimelineAudio, to output: any AudioOutput, stretcher: inout TimeStretcher, rate: Double, gain: Float) {
        var buffer = audio.buffer
        if rate != 1 { buffer = stretcher.process(buffer, rate: rate) }
        if gain != 1 { buffer = buffer.scaled(by: gain) }
        if buffer.frameCount > 0 {
            do {
                try output.write(buffer)
            } catch {
                // A device error must not stop the picture: the clock runs on
                // from its last reading and the next write tries again.
                stats.update { $0.audioWriteErrors += 1 }
                return
            }
        }
        let underruns = output.underruns
        stats.update {
            $0.audioFramesWritten += buffer.frameCount
            $0.underruns = underruns
        }
        // Input consumed so far, in timeline seconds; the stretcher holds back a little.
        let consumedEnd = audio.timeline + audio.buffer.duration.seconds - stretcher.latency(rate: rate)
        let (delay, at) = output.delay()
        clock.set(position: consumedEnd - delay.secondsDouble * rate, at: at, serial: audio.serial)
        if !audio.segment.hasVideo {
            let itemTime = audio.segment.itemTime(ofPts: audio.buffer.pts)
            presented(audio.segment, itemTime: itemTime, timeline: audio.timeline, serial: audio.serial)
        }
    }
}
