/// One event for the control channels: `{"event":"item","item":2,...}`.
/// Standard output carries them with `[log] status_interval`, the control
/// socket to the connections that observe its kind.
public struct ControlEvent: Sendable, Equatable {
    public let kind: EventSubscription.Kind
    /// The event's fields besides `event`.
    public let fields: [String: JSONValue]

    public init(_ kind: EventSubscription.Kind, fields: [String: JSONValue] = [:]) {
        self.kind = kind
        self.fields = fields
    }

    /// An event that carries the fields `status` answers with (a status
    /// event, an item event).
    public init(_ kind: EventSubscription.Kind, status: PlaybackStatus) {
        self.init(kind, fields: status.fields)
    }

    /// The JSON line, without its line break.
    public var line: String {
        var members = fields
        members["event"] = .string(kind.rawValue)
        return JSONValue.object(members).jsonText
    }
}
