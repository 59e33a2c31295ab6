import CFFmpeg
import Synchronization

/// Lets a blocking libavformat call (open, read, seek) give up: libav polls the
/// interrupt callback while it waits on I/O, and we answer "stop" once the
/// deadline has passed or the owner cancelled. Without it a stalled network
/// source or a pathological file hangs the thread forever.
final class IODeadline: Sendable {
    private let deadlineNanos = Atomic<Int64>(.max)
    private let cancelled = Atomic<Bool>(false)
    private let aborted = Atomic<Bool>(false)

    /// Arms the deadline `seconds` from now; nil disarms it.
    func arm(seconds: Double?) {
        guard let seconds else { deadlineNanos.store(.max, ordering: .relaxed); return }
        deadlineNanos.store(Self.now() + Int64(seconds * 1e9), ordering: .relaxed)
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Like `cancel`, until `resume`: a read aborted for a seek.
    func abort() { aborted.store(true, ordering: .relaxed) }
    func resume() { aborted.store(false, ordering: .relaxed) }

    /// Cancelled or aborted: an interrupt now is not the deadline's.
    var isStopped: Bool { cancelled.load(ordering: .relaxed) || aborted.load(ordering: .relaxed) }

    var shouldInterrupt: Bool {
        cancelled.load(ordering: .relaxed) || aborted.load(ordering: .relaxed)
            || Self.now() > deadlineNanos.load(ordering: .relaxed)
    }

    /// The callback for AVFormatContext.interrupt_callback; `self` must outlive the context.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<IODeadline>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    private static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
