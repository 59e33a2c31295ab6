import Glibc
import MarqueeControl
import Testing

/// What can be checked of the libgpiod side without GPIO hardware: a
/// missing chip is a typed error naming the call, and the source does not start.
@Suite struct GPIOErrorTests {
    func source(chip: String) -> GPIOButtonSource {
        let executor = CommandExecutor(target: FakePlayer(), quit: {})
        return GPIOButtonSource(button: .init(chip: chip, line: 0, settings: .init(), action: .toggle), executor: executor, log: { _ in })
    }

    @Test func aMissingChipByNameNamesTheCall() {
        let source = source(chip: "marquee-no-such-chip")
        #expect(throws: GPIOError("gpiod_chip_open_by_name", chip: "marquee-no-such-chip", errno: ENOENT)) { try source.start() }
        #expect(!source.isRunning)
    }

    @Test func aMissingChipByPathNamesTheCall() {
        #expect(throws: GPIOError("gpiod_chip_open", chip: "/dev/marquee-no-such-chip", errno: ENOENT)) {
            try source(chip: "/dev/marquee-no-such-chip").start()
        }
    }

    @Test func theMessageSaysWhatToDo() {
        let error = GPIOError("gpiod_line_request_both_edges_events", chip: "gpiochip0", line: 4, errno: EBUSY)
        #expect(error.description == "gpio gpiochip0 line 4: gpiod_line_request_both_edges_events: Device or resource busy "
            + "(the line is in use by another program or button)")
        #expect(GPIOError("gpiod_chip_open_by_name", chip: "gpiochip9", errno: ENOENT).description
            == "gpio gpiochip9: gpiod_chip_open_by_name: No such file or directory (no such GPIO chip; `gpiodetect` lists them)")
    }
}
