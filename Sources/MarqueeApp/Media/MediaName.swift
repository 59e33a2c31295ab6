/// The name of a file in the upload folder as a client gives it
/// (`PUT /media/NAME`): a plain file name, so that no request can reach
/// outside the folder, hide a file from the listing or write a name a
/// terminal would misread.
struct MediaName: Sendable, Hashable, CustomStringConvertible {
    /// Bytes in a name, as most Linux file systems allow.
    static let longest = 255

    let text: String

    /// - Throws: `MediaNameError` saying what is wrong with `text`.
    init(_ text: String) throws(MediaNameError) {
        guard !text.isEmpty else { throw MediaNameError(name: text, reason: "is empty") }
        guard text.utf8.count <= Self.longest else { throw MediaNameError(name: text, reason: "is longer than \(Self.longest) bytes") }
        guard !text.contains("/") else { throw MediaNameError(name: text, reason: "holds a '/': give a plain file name, not a path") }
        guard text != "..", text != "." else { throw MediaNameError(name: text, reason: "names a folder, not a file") }
        guard !text.hasPrefix(".") else { throw MediaNameError(name: text, reason: "starts with '.': hidden names are the player's own") }
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw MediaNameError(name: text, reason: "holds the control character U+\(String(control.value, radix: 16, uppercase: true))")
        }
        self.text = text
    }

    /// The name's extension with its dot (".mp4"), or "" for none.
    var suffix: String {
        guard let dot = text.lastIndex(of: "."), dot != text.startIndex else { return "" }
        return String(text[dot...])
    }

    var description: String { text }
}

/// A name `MediaName` refuses, and why.
struct MediaNameError: Error, Sendable, CustomStringConvertible {
    let name: String
    let reason: String

    /// `'..' names a folder, not a file`; the name is cut and its control
    /// characters escaped, since it came from a client.
    var description: String {
        let shown = name.prefix(80).unicodeScalars.map { $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
        return "'\(shown.joined())' \(reason)"
    }
}
