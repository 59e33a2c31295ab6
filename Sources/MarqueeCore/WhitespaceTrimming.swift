/// Trimming as the control channels and HLS playlists need it;
/// FoundationEssentials, which the player links alone, has no CharacterSet.
extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Unicode white space
    /// that is not a line break).
    public var trimmingSpaces: String { trimming { $0.isWhitespace && !$0.isNewline } }

    /// Without leading and trailing white space, line breaks included.
    public var trimmingWhitespace: String { trimming(\.isWhitespace) }

    private func trimming(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}
