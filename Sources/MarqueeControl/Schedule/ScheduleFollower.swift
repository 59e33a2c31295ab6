import MarqueeCore
import Synchronization

/// Follows a timetable on real time, on a thread of its own: what it says
/// now is handed on at the start, at each of its changes, and at once when
/// the clock is set (NTP's first step, `date -s`), since a deadline worked
/// out before a step is an hour off or decades away. Asleep in between: one
/// wait on the `WallClockAlarm` for the next change, no polling.
///
/// Until the clock is synchronised (a board without a real-time clock boots
/// in 1970), the timetable is not trusted: `beforeClockSet` plays, and the
/// synchronisation is looked at again every `unsynchronisedRecheck` seconds
/// and at every step.
///
/// Thread-safe: `start` and `stop` from any thread; `apply` is called on
/// the follower's thread, one call at a time.
public final class ScheduleFollower<Content: Equatable & Sendable>: Sendable {
    /// What the timetable says at an instant, and when that next changes (nil: never).
    public struct Reading: Sendable {
        public var content: Content
        public var nextChange: WallTime?

        public init(content: Content, nextChange: WallTime?) {
            self.content = content
            self.nextChange = nextChange
        }
    }

    /// Why content was handed on.
    public enum Cause: String, Sendable {
        case start
        /// A change the timetable has at this instant.
        case boundary
        /// The clock was set, and the timetable says something else at the new time.
        case clockStepped = "clock stepped"
        /// The clock became synchronised: the timetable is followed from now on.
        case clockSynchronised = "clock synchronised"
    }

    static var unsynchronisedRecheck: Double { 30 }

    private let clock: any WallClock
    private let alarm: any WallClockAlarm
    private let synchronisation: any ClockSynchronisation
    private let beforeClockSet: Content
    private let read: @Sendable (WallTime) -> Reading
    private let apply: @Sendable (Content, Cause) -> Void
    private let failed: @Sendable (AlarmError) -> Void
    private let counters = Mutex((evaluations: 0, running: false))

    /// - Parameters:
    ///   - beforeClockSet: what plays until the clock is synchronised.
    ///   - read: the timetable at an instant.
    ///   - apply: hands content on (on the follower's thread).
    ///   - failed: the alarm could not be armed; the follower stops, the content stays.
    public init(clock: any WallClock, alarm: any WallClockAlarm, synchronisation: any ClockSynchronisation,
                beforeClockSet: Content, read: @escaping @Sendable (WallTime) -> Reading,
                apply: @escaping @Sendable (Content, Cause) -> Void, failed: @escaping @Sendable (AlarmError) -> Void) {
        self.clock = clock
        self.alarm = alarm
        self.synchronisation = synchronisation
        self.beforeClockSet = beforeClockSet
        self.read = read
        self.apply = apply
        self.failed = failed
    }

    /// How many times the timetable was read: once at the start, once per change and per step.
    public var evaluations: Int { counters.withLock { $0.evaluations } }

    /// Starts the thread (once).
    public func start() {
        guard counters.withLock({ counters in
            defer { counters.running = true }
            return !counters.running
        }) else { return }
        NamedThread.start("marquee.sched") { [self] in follow() }
    }

    /// Ends the thread's wait; nothing is applied after it returns to its loop.
    public func stop() { alarm.cancel() }

    private func follow() {
        var applied: Content?
        var cause = Cause.start
        var wasSynchronised = false
        while true {
            let now = clock.now()
            let synchronised = synchronisation.isSynchronised
            let reading = synchronised ? read(now) : Reading(content: beforeClockSet, nextChange: nil)
            counters.withLock { $0.evaluations += 1 }
            if synchronised, !wasSynchronised, cause != .start { cause = .clockSynchronised }
            wasSynchronised = synchronised
            if reading.content != applied {
                apply(reading.content, cause)
                applied = reading.content
            }
            var deadline = reading.nextChange
            if !synchronised {
                deadline = WallTime(secondsSinceEpoch: now.secondsSinceEpoch + Self.unsynchronisedRecheck, utcOffset: now.utcOffset)
            }
            do throws(AlarmError) {
                switch try alarm.wait(until: deadline) {
                case .reached: cause = .boundary
                case .stepped: cause = .clockStepped
                case .cancelled: return
                }
            } catch {
                failed(error)
                return
            }
        }
    }
}
