import Glibc
import Synchronization

/// A local time zone as the C library knows it: the process's own (TZ, else
/// /etc/localtime, from tzdata), or one named as TZ would name it. Offsets
/// come from `localtime_r`'s `tm_gmtoff`; there is no zone table here.
///
/// A named zone is for tests and previews that need two zones in one
/// process: while it is read, TZ is set to its name under a process-wide
/// lock and put back after, so code elsewhere in the process that reads
/// local time at that moment without the lock sees the named zone.
public struct LocalZone: Sendable, Hashable, CustomStringConvertible {
    /// The TZ value; nil for the process's zone.
    public let name: String?

    /// The process's zone, as `SystemWallClock` reads it.
    public static let system = LocalZone(checkedName: nil)

    /// A zone by its TZ value ("Europe/Berlin", "America/New_York", a POSIX
    /// rule such as "CET-1CEST,M3.5.0,M10.5.0/3"); nil for "" or a name with
    /// "=" or NUL, which TZ cannot hold. An unknown name is UTC, as the C library takes it.
    public init?(named name: String) {
        guard !name.isEmpty, !name.contains("="), !name.utf8.contains(0) else { return nil }
        self.init(checkedName: name)
    }

    private init(checkedName name: String?) {
        self.name = name
    }

    public var description: String { name ?? "local" }

    /// Runs `body` with a function that gives the zone's UTC offset (seconds
    /// east) at an instant (seconds since the epoch), all under one take of
    /// the lock, so a named zone's file is read once for many offsets.
    /// - Parameter body: must not call back into `LocalZone` (the lock is not recursive).
    func withOffsets<Result>(_ body: ((Int) -> Int) -> Result) -> Result {
        zoneLock.withLock { _ in
            guard let name else { return body(Self.offset) }
            let saved = getenv("TZ").map { String(cString: $0) }
            Self.setTZ(name)
            defer { Self.setTZ(saved) }
            return body(Self.offset)
        }
    }

    /// tm_gmtoff from localtime_r; 0 for a year localtime_r cannot represent
    /// (beyond +-2^31 years), where no schedule reaches.
    private static func offset(at seconds: Int) -> Int {
        var time = time_t(seconds)
        var local = tm()
        return localtime_r(&time, &local) == nil ? 0 : local.tm_gmtoff
    }

    /// Sets TZ (nil: unsets it) and has the C library read it: localtime_r
    /// reads TZ only once unless tzset is called.
    private static func setTZ(_ value: String?) {
        // The name has no "=" (init checks), so setenv and unsetenv can fail only for lack of memory.
        let status = value.map { setenv("TZ", $0, 1) } ?? unsetenv("TZ")
        precondition(status == 0, "setenv TZ: \(String(cString: strerror(errno)))")
        tzset()
    }
}

/// Every reading of the C library's zone: a named zone changes it while it is read.
private let zoneLock = Mutex(())
