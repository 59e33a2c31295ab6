import CGPIOD
import Glibc

/// An eventfd that ends a thread's wait in poll(2) at once (`raise`), so the
/// thread waits for its descriptors with no timeout: a button thread for its
/// line's edges, the control socket's for its clients. Owns the descriptor
/// and closes it.
final class StopEvent: Sendable {
    let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A new event; nil with `errno` set when `eventfd` fails (the process
    /// is out of descriptors), for callers that say so in their own error.
    static func make() -> StopEvent? {
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        return descriptor >= 0 ? StopEvent(descriptor: descriptor) : nil
    }

    /// - Throws: `GPIOError` naming `eventfd`.
    static func make(chip: String, line: Int) throws(GPIOError) -> StopEvent {
        guard let event = make() else { throw GPIOError("eventfd", chip: chip, line: line, errno: errno) }
        return event
    }

    deinit { close(descriptor) }

    /// Makes the descriptor readable until `reset`. A write can only fail
    /// when the counter is full (EAGAIN), and then it is readable already.
    func raise() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Makes it unreadable again, for a thread that waits on it many times.
    func reset() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
    }
}
