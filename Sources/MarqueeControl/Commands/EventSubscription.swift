/// What `observe` asks for on the control socket: which events, and how
/// often a status event comes.
public struct EventSubscription: Sendable, Equatable {
    /// The events a connection can observe, by the `event` name they carry.
    public enum Kind: String, Sendable, CaseIterable {
        /// Playing or paused.
        case state
        /// The current item changed.
        case item
        /// An item played to its end (each loop pass: the seam).
        case seam
        /// An item failed and was skipped; a frame the display refused.
        case error
        /// A network item went away, and came back.
        case lost, back
        /// The buffer ran dry; time control changed (waiting, playing, paused).
        case stalled, timeControl
        /// Nothing more to play.
        case finished
        /// The configuration was read again.
        case reloaded
        /// The schedule put other content on screen (or turned it off).
        case schedule
        /// `status` fields every `statusInterval` seconds.
        case status
    }

    public var kinds: Set<Kind>
    /// Seconds between status events; nil without `status`.
    public var statusInterval: Double?

    /// The interval of `observe status` without a number.
    public static let defaultStatusInterval = 1.0
    /// Status events no closer than this (a client cannot make the player spin).
    public static let shortestStatusInterval = 0.1

    public init(kinds: Set<Kind>, statusInterval: Double? = nil) {
        self.kinds = kinds
        self.statusInterval = kinds.contains(.status) ? (statusInterval ?? Self.defaultStatusInterval) : nil
    }

    /// `observe` with no names: every event but status.
    public static let allButStatus = EventSubscription(kinds: Set(Kind.allCases).subtracting([.status]))

    /// Reads `observe`'s arguments: event names, `all`, and a number of
    /// seconds after `status` (`observe status 5 item error`).
    public init(arguments: [String]) throws(ControlError) {
        guard !arguments.isEmpty else {
            self = .allButStatus
            return
        }
        var kinds: Set<Kind> = []
        var interval: Double?
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            index += 1
            if name == "all" {
                kinds.formUnion(Self.allButStatus.kinds)
                continue
            }
            guard let kind = Kind(rawValue: name) else {
                let hint = CommandSuggestion.closest(to: name, in: Kind.allCases.map(\.rawValue) + ["all"])
                    .map { " (did you mean '\($0)'?)" } ?? ""
                throw ControlError("observe: unknown event '\(name.prefix(40))'\(hint); events: all, \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kinds.insert(kind)
            if kind == .status, index < arguments.count, let seconds = Double(arguments[index]) {
                guard seconds.isFinite, seconds >= Self.shortestStatusInterval, seconds <= 86_400 else {
                    throw ControlError("observe: status every '\(arguments[index])' s: give seconds from \(Self.shortestStatusInterval) to 86400")
                }
                interval = seconds
                index += 1
            }
        }
        self.init(kinds: kinds, statusInterval: interval)
    }

    /// The arguments that give this subscription back.
    public var arguments: [String] {
        Kind.allCases.filter(kinds.contains).flatMap { kind -> [String] in
            kind == .status ? ["status", ControlCommand.format(statusInterval ?? Self.defaultStatusInterval)] : [kind.rawValue]
        }
    }
}
