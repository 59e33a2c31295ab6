import CGPIOD
import Glibc

/// An open GPIO chip (libgpiod's `gpiod_chip`). Closed when released.
/// Lines taken from it keep it alive, since libgpiod frees a chip's lines
/// with the chip.
final class GPIOChip {
    let name: String
    fileprivate let chip: OpaquePointer

    /// - Parameter name: "gpiochip0", or a device path ("/dev/gpiochip0").
    /// - Throws: `GPIOError` naming the open call (ENOENT: no such chip).
    init(_ name: String) throws(GPIOError) {
        self.name = name
        let opened = name.hasPrefix("/") ? gpiod_chip_open(name) : gpiod_chip_open_by_name(name)
        guard let opened else {
            throw GPIOError(name.hasPrefix("/") ? "gpiod_chip_open" : "gpiod_chip_open_by_name", chip: name, errno: errno)
        }
        chip = opened
    }

    deinit { gpiod_chip_close(chip) }
}

/// One line requested for edge events on both edges (libgpiod v1:
/// `gpiod_line_request_both_edges_events`). The request is released when
/// this object goes away. Used by one thread at a time.
final class GPIOLine {
    let chip: GPIOChip
    let offset: Int
    private let line: OpaquePointer
    /// The request's event descriptor (libgpiod's, closed with the request):
    /// readable while an edge is queued.
    private let eventDescriptor: Int32

    /// - Throws: `GPIOError` from `gpiod_chip_get_line` (EINVAL: no such line)
    ///   or from the request (EBUSY: another program or button holds it).
    init(chip: GPIOChip, offset: Int, consumer: String) throws(GPIOError) {
        self.chip = chip
        self.offset = offset
        guard offset >= 0, let line = gpiod_chip_get_line(chip.chip, UInt32(offset)) else {
            throw GPIOError("gpiod_chip_get_line", chip: chip.name, line: offset, errno: offset < 0 ? EINVAL : errno)
        }
        guard gpiod_line_request_both_edges_events(line, consumer) == 0 else {
            throw GPIOError("gpiod_line_request_both_edges_events", chip: chip.name, line: offset, errno: errno)
        }
        let descriptor = gpiod_line_event_get_fd(line)
        guard descriptor >= 0 else {
            let failure = errno
            gpiod_line_release(line)
            throw GPIOError("gpiod_line_event_get_fd", chip: chip.name, line: offset, errno: failure)
        }
        self.line = line
        eventDescriptor = descriptor
    }

    deinit { gpiod_line_release(line) }

    /// The line's level now: true when high.
    func isHigh() throws(GPIOError) -> Bool {
        let value = gpiod_line_get_value(line)
        guard value >= 0 else { throw GPIOError("gpiod_line_get_value", chip: chip.name, line: offset, errno: errno) }
        return value == 1
    }

    /// What ended a wait.
    enum Wake {
        case edge
        case timeout
        case stopped
    }

    /// Waits for an edge, for `stop` to be raised, or up to `nanoseconds`
    /// (rounded up to whole milliseconds; nil waits without a limit), in one
    /// poll(2) on the line's event descriptor and the stop event: no wake-up
    /// while nothing happens. An interrupted wait (EINTR) reads as a timeout.
    func wait(nanoseconds: UInt64?, stop: StopEvent) throws(GPIOError) -> Wake {
        var watched = [pollfd(fd: eventDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)]
        let milliseconds = nanoseconds.map { Int32(clamping: ($0 + 999_999) / 1_000_000) } ?? -1
        let ready = poll(&watched, nfds_t(watched.count), milliseconds)
        if ready < 0 {
            if errno == EINTR { return .timeout }
            throw GPIOError("poll", chip: chip.name, line: offset, errno: errno)
        }
        if watched[1].revents != 0 { return .stopped }
        return watched[0].revents != 0 ? .edge : .timeout
    }

    /// Reads one pending edge: rising or falling, and the kernel's time of
    /// it in nanoseconds (CLOCK_MONOTONIC on Linux 5.7 and later).
    func readEdge() throws(GPIOError) -> (rising: Bool, nanoseconds: UInt64) {
        var event = gpiod_line_event()
        guard gpiod_line_event_read(line, &event) == 0 else {
            throw GPIOError("gpiod_line_event_read", chip: chip.name, line: offset, errno: errno)
        }
        let time = UInt64(max(0, event.ts.tv_sec)) * 1_000_000_000 + UInt64(max(0, event.ts.tv_nsec))
        return (event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE), time)
    }
}
