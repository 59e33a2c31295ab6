import CDRM
import Glibc
import MarqueeCore

/// Page-flip completion events on the card's fd. Each flip is committed with
/// `slot` as its user data; the event handler writes the flip's timestamp
/// (the vblank the buffer went up at, CLOCK_MONOTONIC) into it.
///
/// Owns the slot's memory. Not thread-safe: the presenter thread's.
final class PageFlipEvents {
    let slot: UnsafeMutablePointer<Int64>
    private let device: DRMDevice

    init(device: DRMDevice) {
        self.device = device
        slot = .allocate(capacity: 1)
        slot.initialize(to: -1)
    }

    deinit { slot.deallocate() }

    var userData: UnsafeMutableRawPointer { UnsafeMutableRawPointer(slot) }

    /// Blocks until the pending flip completes or `timeout` passes; returns
    /// the flip's time, or nil on timeout (a driver that never signals must not hang us).
    func waitForFlip(timeout: Duration) throws(KMSError) -> HostTime? {
        slot.pointee = -1
        let deadline = Int64(timeout.nanoseconds / 1_000_000)
        var descriptor = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
        while slot.pointee < 0 {
            let ready = poll(&descriptor, 1, Int32(max(1, deadline)))
            if ready < 0, errno == EINTR { continue }
            if ready < 0 { throw KMSError(call: "poll", code: errno, device: device.path) }
            if ready == 0 { return nil }
            try Self.handleEvents(on: device)
        }
        return HostTime(nanoseconds: slot.pointee)
    }

    /// Reads the card's pending events: each flip's time (its vblank,
    /// CLOCK_MONOTONIC) goes into the slot it was committed with, whoever's.
    static func handleEvents(on device: DRMDevice) throws(KMSError) {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, seconds, microseconds, userData in
            userData?.assumingMemoryBound(to: Int64.self).pointee = Int64(seconds) * 1_000_000_000 + Int64(microseconds) * 1_000
        }
        try checkDRM(drmHandleEvent(device.fd, &context), "drmHandleEvent", device: device.path)
    }
}
