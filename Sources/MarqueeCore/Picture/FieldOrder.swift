/// How a picture's lines were scanned: all at once, or as two fields of
/// alternate lines taken a field interval apart (interlaced video).
public enum FieldOrder: String, Sendable, Hashable, Codable {
    case progressive
    /// Interlaced, top field first.
    case topFieldFirst
    /// Interlaced, bottom field first.
    case bottomFieldFirst

    public var isInterlaced: Bool { self != .progressive }
}
