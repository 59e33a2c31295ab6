import CLinuxTime
import Glibc

/// The system's word on whether real time is set: the kernel's NTP status
/// (chrony and ntpd clear STA_UNSYNC once they have synchronised it), or
/// systemd-timesyncd's flag file, which it makes on its first synchronisation.
public struct SystemClockSynchronisation: ClockSynchronisation {
    public init() {}

    public var isSynchronised: Bool {
        var status = timex()
        // modes = 0: a read only; it fails only for a bad pointer.
        if adjtimex(&status) != TIME_ERROR, status.status & STA_UNSYNC == 0 { return true }
        return access(Self.timesyncFlag, F_OK) == 0
    }

    static let timesyncFlag = "/run/systemd/timesync/synchronized"
}
