import CGPIOD
import Glibc

/// An eventfd that ends a button thread's wait at once (`raise`), so the
/// thread waits for edges with no timeout. Owns the descriptor and closes it.
final class StopEvent: Sendable {
    let descriptor: Int32

    /// - Throws: `GPIOError` naming `eventfd` (the process is out of descriptors).
    init(chip: String, line: Int) throws(GPIOError) {
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else { throw GPIOError("eventfd", chip: chip, line: line, errno: errno) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Makes the descriptor readable until closed. A write can only fail
    /// when the counter is full (EAGAIN), and then it is readable already.
    func raise() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }
}
