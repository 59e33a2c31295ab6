import Glibc

/// Numbers in messages, as printf writes them: the player links
/// FoundationEssentials only, which has no `String(format:)`.
extension String {
    /// `value` with `places` digits after the point ("%.*f"): 1.25 -> "1.3" with 1.
    public init(_ value: Double, places: Int) {
        self = Self.printf("%.*f", Int32(places), value)
    }

    /// `value` with `digits` significant digits, trailing zeros dropped ("%.*g"):
    /// 29.97002997 -> "30" with 3, 23.976 -> "24" with 2.
    public init(_ value: Double, significant digits: Int) {
        self = Self.printf("%.*g", Int32(digits), value)
    }

    private static func printf(_ format: String, _ precision: Int32, _ value: Double) -> String {
        withVaList([precision, value]) { arguments in
            var buffer = [CChar](repeating: 0, count: 64)
            let length = Int(vsnprintf(&buffer, buffer.count, format, arguments))
            if length >= buffer.count {
                buffer = [CChar](repeating: 0, count: length + 1)
                _ = withVaList([precision, value]) { vsnprintf(&buffer, buffer.count, format, $0) }
            }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
