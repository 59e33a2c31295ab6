import FoundationEssentials
import MarqueeFFmpeg

/// Reads a network item's packets ahead of its decoders, on a thread of
/// its own, up to a forward buffer of `seconds` (AVPlayerItem's
/// `preferredForwardBufferDuration`) or `maximumBytes`: a slow or jittery
/// server is ridden out from compressed packets, which are small, instead
/// of from the few decoded frames the queues hold. The source thread takes
/// packets with `next()` and never blocks on the network; the reader raises
/// `consumer` when it has something new.
///
/// Seeks go through `reposition`, which parks the reader (aborting a read
/// in progress) so the demuxer has one user at a time.
///
/// `@unchecked Sendable`: everything shared is guarded by `condition`.
final class ReadAhead: @unchecked Sendable {
    enum Next {
        case packet(Packet)
        /// The end of the input (for this pass).
        case end
        case failed(FFmpegError)
        /// Nothing read yet: `consumer` is raised when there is.
        case waiting
    }

    private let demuxer: Demuxer
    private let consumer: WakeSignal
    private let seconds: Double
    private let maximumBytes: Int
    /// The stream whose timestamps measure the buffer (video, else audio).
    private let timedStream: Int
    private let condition = Condition()
    private var packets = FIFO<Packet>()
    private var bytes = 0
    private var finished: FFmpegError??
    private var parkRequested = false
    private var parked = false
    private var stopping = false
    /// Cleared by the reader thread as it ends.
    private var running = true
    /// The timed stream's packets the source took from here but holds
    /// undecoded (video read past while it reads on for sound): they are
    /// still ahead of the decoders, so the buffer counts them.
    private var held: (first: MediaTime, end: MediaTime)?

    init(demuxer: Demuxer, timedStream: Int, seconds: Double, maximumBytes: Int = 64 << 20, consumer: WakeSignal) {
        self.demuxer = demuxer
        self.timedStream = timedStream
        self.seconds = seconds
        self.maximumBytes = maximumBytes
        self.consumer = consumer
        NamedThread.start("marquee.read") { [self] in run() }
    }

    /// The next packet, the end, the error that ended reading, or `.waiting`.
    func next() -> Next {
        condition.lock()
        defer { condition.unlock() }
        if let packet = packets.popFirst() {
            bytes -= packet.size
            condition.broadcast()
            return .packet(packet)
        }
        switch finished {
        case .none: return .waiting
        case .some(.none): return .end
        case .some(.some(let error)): return .failed(error)
        }
    }

    /// Seconds of the timed stream buffered ahead of the decoders, and
    /// whether reading has ended (nothing more will come until a seek).
    var level: (seconds: Double, ended: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (span, finished != nil)
    }

    /// Less than `lowWater` seconds buffered, and more to come: the server
    /// is behind. (A server that trickles keeps a packet or two here all
    /// the time, so empty would rarely be seen.)
    var isDry: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished == nil && span < Self.lowWater
    }

    static let lowWater = 0.25

    /// Whether the buffer holds what it aims for: `seconds`, its byte limit, or the end.
    var isFull: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished != nil || span >= seconds || bytes >= maximumBytes
    }

    /// What the source holds of the timed stream, undecoded (nil: nothing).
    func holding(_ span: (first: MediaTime, end: MediaTime)?) {
        condition.lock()
        held = span
        // Held video decoded is room for the reader, who counts it too.
        condition.broadcast()
        condition.unlock()
    }

    /// Parks the reader, runs `body` with the demuxer (a seek), drops what
    /// was read ahead, and lets the reader go on from the new position.
    func reposition<E: Error>(_ body: (Demuxer) throws(E) -> Void) throws(E) {
        condition.lock()
        parkRequested = true
        // A reader in a read is stopped by the abort; one waiting for room, by the broadcast.
        demuxer.abortRead()
        condition.broadcast()
        while !parked { condition.wait() }
        condition.unlock()
        demuxer.resumeReading()
        defer {
            condition.lock()
            packets.removeAll()
            bytes = 0
            finished = nil
            parkRequested = false
            condition.broadcast()
            condition.unlock()
        }
        try body(demuxer)
    }

    /// Stops the reader thread and waits for it; the demuxer is the caller's again.
    func stop() {
        condition.lock()
        stopping = true
        demuxer.abortRead()
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    private var span: Double {
        let timed = packets.elements.lazy.filter { $0.streamIndex == self.timedStream }
        let firsts = [held?.first, timed.first(where: { $0.pts.isValid })?.pts].compactMap { $0 }
        let ends = [held?.end, timed.last(where: { $0.end.isValid })?.end].compactMap { $0 }
        guard let first = firsts.min(), let last = ends.max() else { return 0 }
        return max(0, (last - first).seconds)
    }

    private func run() {
        condition.lock()
        while !stopping {
            if parkRequested {
                parked = true
                condition.broadcast()
                while parkRequested, !stopping { condition.wait() }
                parked = false
                continue
            }
            if finished != nil || span >= seconds || bytes >= maximumBytes {
                condition.wait()
                continue
            }
            condition.unlock()
            let result = Result { () throws(FFmpegError) in try demuxer.read() }
            condition.lock()
            // A read aborted for a seek or a stop is not the input's end or error.
            if parkRequested || stopping { continue }
            switch result {
            case .success(let packet?):
                packets.append(packet)
                bytes += packet.size
            case .success(nil):
                finished = .some(nil)
            case .failure(let error):
                finished = .some(error)
            }
            consumer.raise()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
