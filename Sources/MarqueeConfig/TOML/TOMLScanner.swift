/// A cursor over the Unicode scalars of a TOML text that knows its line and
/// column, so every token and every error has a `SourceLocation`.
struct TOMLScanner {
    let scalars: [Unicode.Scalar]
    private(set) var index = 0
    private(set) var line = 1
    private var lineStart = 0

    /// Decodes `bytes` as UTF-8; TOML files must be valid UTF-8, so a bad
    /// sequence is an error at the place it starts.
    init(utf8 bytes: [UInt8]) throws(TOMLScanError) {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(bytes.count)
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var line = 1, column = 1
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                scalars.append(scalar)
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                break loop
            case .error:
                throw TOMLScanError(location: SourceLocation(line: line, column: column),
                                    message: "invalid UTF-8 byte sequence", scalars: scalars)
            }
        }
        // A byte order mark is allowed at the start and is not part of the text.
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        self.scalars = scalars
    }

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    var location: SourceLocation { SourceLocation(line: line, column: index - lineStart + 1) }
    var isAtEnd: Bool { index >= scalars.count }
    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let position = index + offset
        return position < scalars.count ? scalars[position] : nil
    }

    /// True when the text at the cursor starts with `text`.
    func looksAt(_ text: String) -> Bool {
        var offset = 0
        for scalar in text.unicodeScalars {
            guard peek(offset) == scalar else { return false }
            offset += 1
        }
        return true
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < scalars.count {
            if scalars[index] == "\n" {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
    }

    /// Consumes `scalar` if it is next.
    mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard current == scalar else { return false }
        advance()
        return true
    }

    /// Skips spaces and tabs, TOML's only whitespace within a line.
    mutating func skipWhitespace() {
        while let scalar = current, scalar == " " || scalar == "\t" { advance() }
    }

    /// True at a line break: LF, or CR LF. A CR alone is not a line break.
    var atNewline: Bool { current == "\n" || (current == "\r" && peek(1) == "\n") }

    mutating func takeNewline() -> Bool {
        if current == "\n" { advance(); return true }
        if current == "\r", peek(1) == "\n" { advance(2); return true }
        return false
    }
}

/// A failure to decode the bytes before parsing starts; carries the scalars
/// read so far so the line can still be quoted.
struct TOMLScanError: Error {
    let location: SourceLocation
    let message: String
    let scalars: [Unicode.Scalar]
}

extension Unicode.Scalar {
    /// Control characters TOML refuses in comments and strings: everything
    /// below U+0020 except tab, and DEL.
    var isTOMLForbiddenControl: Bool {
        (value < 0x20 && value != 0x09) || value == 0x7F
    }

    var isASCIIDigit: Bool { ("0"..."9").contains(self) }

    var isASCIIHexDigit: Bool { isASCIIDigit || ("a"..."f").contains(self) || ("A"..."F").contains(self) }

    /// `A-Z a-z 0-9 _ -`, the characters of a bare key.
    var isBareKeyCharacter: Bool {
        isASCIIDigit || ("a"..."z").contains(self) || ("A"..."Z").contains(self) || self == "_" || self == "-"
    }
}
