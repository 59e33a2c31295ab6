/// Text as one segment of a URL's path: every byte of its UTF-8 outside
/// RFC 3986's unreserved set percent-encoded ("menu café.jpg" ->
/// "menu%20caf%C3%A9.jpg"), so that no '/', '?' or '#' in it is read as
/// the URL's own.
public enum PathSegment {
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    private static let digits = Array("0123456789ABCDEF".utf8)

    public static func encoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
