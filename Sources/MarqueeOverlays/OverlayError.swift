/// Why an overlay could not be made: the call that failed and what it was given.
public struct OverlayError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let detail: String

    public var description: String { "\(call): \(detail)" }
}
