/// Cuts a byte stream into lines (LF or CR LF), holding at most
/// `maximumLength` bytes of an unfinished line: a longer line is reported
/// as `.tooLong` once and the rest of it skipped, so a stream without
/// line breaks cannot grow memory. Pure: fed bytes, returns pieces.
public struct LineSplitter: Sendable {
    public enum Piece: Sendable, Equatable {
        case line(String)
        /// The line had bytes that are not UTF-8.
        case notUTF8
        /// The line was longer than the limit; it was dropped.
        case tooLong
    }

    public let maximumLength: Int
    private var pending: [UInt8] = []
    private var skipping = false

    public init(maximumLength: Int = ControlRequest.maximumLineLength) {
        self.maximumLength = maximumLength
    }

    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if skipping {
                    skipping = false
                } else {
                    if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                    pieces.append(String(validating: pending, as: UTF8.self).map(Piece.line) ?? .notUTF8)
                }
                pending.removeAll(keepingCapacity: true)
            } else if !skipping {
                pending.append(byte)
                if pending.count > maximumLength {
                    pieces.append(.tooLong)
                    pending.removeAll(keepingCapacity: true)
                    skipping = true
                }
            }
        }
        return pieces
    }

    /// The end of the stream: a last line without a line break still counts.
    public mutating func finish() -> [Piece] {
        defer { pending.removeAll(); skipping = false }
        guard !pending.isEmpty, !skipping else { return [] }
        return [String(validating: pending, as: UTF8.self).map(Piece.line) ?? .notUTF8]
    }
}
