import Glibc

/// A failed libgpiod call: which call, on which chip and line, and the
/// system's reason (libgpiod v1 reports failures through `errno`).
public struct GPIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The libgpiod function that failed, e.g. "gpiod_chip_open_by_name".
    public let call: String
    public let chip: String
    public let line: Int?
    public let errno: Int32

    public init(_ call: String, chip: String, line: Int? = nil, errno: Int32) {
        self.call = call
        self.chip = chip
        self.line = line
        self.errno = errno
    }

    /// `gpio gpiochip0 line 4: gpiod_line_request_both_edges_events: Device or resource busy (the line is in use by another program or button)`
    public var description: String {
        let place = "gpio \(chip)" + (line.map { " line \($0)" } ?? "")
        return "\(place): \(call): \(String(cString: strerror(errno)))\(hint)"
    }

    /// What the usual failures mean for someone wiring a kiosk.
    private var hint: String {
        switch errno {
        case ENOENT where call.hasPrefix("gpiod_chip_open"): " (no such GPIO chip; `gpiodetect` lists them)"
        case EBUSY: " (the line is in use by another program or button)"
        case EINVAL where call == "gpiod_chip_get_line": " (the chip has no such line; `gpioinfo` lists them)"
        case EACCES, EPERM: " (no permission for the GPIO device)"
        default: ""
        }
    }
}
