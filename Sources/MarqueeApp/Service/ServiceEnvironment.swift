import FoundationEssentials
import Glibc

/// What the service manager tells a started service in its environment
/// (sd_notify(3), sd_watchdog_enabled(3)): where to send notifications and
/// how often it expects to hear that the service is alive.
struct ServiceEnvironment: Equatable {
    /// `NOTIFY_SOCKET`: nil when not started by a manager that listens (`Type=notify`).
    var socketPath: String?
    /// `WATCHDOG_USEC` (`WatchdogSec=`), when `WATCHDOG_PID` is unset or this process.
    var watchdog: Duration?
    /// Set when `WATCHDOG_USEC` is there but not a positive number: said once.
    var problem: String?

    init(_ environment: [String: String], pid: Int32) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = environment["WATCHDOG_USEC"] else { return }
        // WATCHDOG_PID names the process meant, where a wrapper starts the player.
        if let owner = environment["WATCHDOG_PID"], Int32(owner) != pid { return }
        guard let microseconds = Int64(text), microseconds > 0 else {
            problem = "WATCHDOG_USEC='\(text)' is not a positive number of microseconds; no watchdog pings"
            return
        }
        watchdog = .microseconds(microseconds)
    }

    static var current: ServiceEnvironment { ServiceEnvironment(ProcessInfo.processInfo.environment, pid: getpid()) }
}
