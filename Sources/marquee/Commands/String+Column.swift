extension String {
    /// Cut or filled with spaces to `width` characters, for a column.
    func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
