/// The four string forms: basic `"..."` (with escapes), literal `'...'`,
/// and their multi-line `"""` / `'''` forms.
extension TOMLParser {
    mutating func parseBasicString() throws(TOMLSyntaxError) -> String {
        try parseSingleLine(quote: "\"", escapes: true)
    }

    mutating func parseLiteralString() throws(TOMLSyntaxError) -> String {
        try parseSingleLine(quote: "'", escapes: false)
    }

    /// A one-line string up to the closing `quote`; backslash escapes only in basic strings.
    private mutating func parseSingleLine(quote: Unicode.Scalar, escapes: Bool) throws(TOMLSyntaxError) -> String {
        let start = scanner.location
        scanner.advance()
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = scanner.current else { throw fail("unterminated string (opened at \(start))") }
            switch scalar {
            case quote:
                scanner.advance()
                return String(text)
            case "\\" where escapes:
                text.append(try parseEscape())
            case "\n", "\r":
                throw fail("a line break is not allowed in a single-line string (opened at \(start))")
            default:
                try checkStringScalar(scalar)
                text.append(scalar)
                scanner.advance()
            }
        }
    }

    mutating func parseMultilineBasicString() throws(TOMLSyntaxError) -> String {
        try parseMultiline(quote: "\"", escapes: true)
    }

    mutating func parseMultilineLiteralString() throws(TOMLSyntaxError) -> String {
        try parseMultiline(quote: "'", escapes: false)
    }

    /// A line break right after the opening delimiter is dropped; up to two
    /// quotes may come right before the closing three (`""""` ends with `"`).
    /// Line breaks are kept as LF, which the spec allows.
    private mutating func parseMultiline(quote: Unicode.Scalar, escapes: Bool) throws(TOMLSyntaxError) -> String {
        let start = scanner.location
        scanner.advance(3)
        _ = scanner.takeNewline()
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = scanner.current else { throw fail("unterminated multi-line string (opened at \(start))") }
            if scalar == quote {
                var run = 0
                while scanner.peek(run) == quote { run += 1 }
                if run < 3 {
                    text.append(contentsOf: repeatElement(quote, count: run))
                    scanner.advance(run)
                    continue
                }
                guard run <= 5 else { throw fail("too many quotes: at most two may come before the closing delimiter") }
                text.append(contentsOf: repeatElement(quote, count: run - 3))
                scanner.advance(run)
                return String(text)
            }
            if scanner.takeNewline() {
                text.append("\n")
            } else if scalar == "\\", escapes {
                if lineEndingBackslash() {
                    while scanner.current == " " || scanner.current == "\t" || scanner.atNewline { scanner.advance() }
                } else {
                    text.append(try parseEscape())
                }
            } else {
                try checkStringScalar(scalar)
                text.append(scalar)
                scanner.advance()
            }
        }
    }

    /// At a `\` that is the last thing on its line but spaces: consumes the
    /// backslash and returns true (the line break and the next line's
    /// leading space are then trimmed).
    private mutating func lineEndingBackslash() -> Bool {
        var offset = 1
        while scanner.peek(offset) == " " || scanner.peek(offset) == "\t" { offset += 1 }
        let atBreak = scanner.peek(offset) == "\n" || (scanner.peek(offset) == "\r" && scanner.peek(offset + 1) == "\n")
        if atBreak { scanner.advance() }
        return atBreak
    }

    private func checkStringScalar(_ scalar: Unicode.Scalar) throws(TOMLSyntaxError) {
        if scalar.isTOMLForbiddenControl {
            throw fail("control character \(hex(scalar)) must be escaped in a string")
        }
    }

    /// `\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX`, the escapes of TOML 1.0.
    private mutating func parseEscape() throws(TOMLSyntaxError) -> Unicode.Scalar {
        let location = scanner.location
        scanner.advance()
        guard let code = scanner.current else { throw fail("unterminated escape sequence", at: location) }
        scanner.advance()
        switch code {
        case "b": return "\u{08}"
        case "t": return "\t"
        case "n": return "\n"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "\"": return "\""
        case "\\": return "\\"
        case "u", "U":
            let count = code == "u" ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<count {
                guard let digit = scanner.current, digit.isASCIIHexDigit else {
                    throw fail("\\\(code) needs \(count) hexadecimal digits", at: location)
                }
                value = value * 16 + (digit.isASCIIDigit ? digit.value - 48 : hexLetterValue(digit))
                scanner.advance()
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw fail("\\\(code)\(String(value, radix: 16, uppercase: true)) is not a Unicode scalar value", at: location)
            }
            return scalar
        default:
            throw fail("invalid escape sequence '\\\(code)'", at: location)
        }
    }

    private func hexLetterValue(_ scalar: Unicode.Scalar) -> UInt32 {
        (scalar.value | 0x20) - 0x61 + 10
    }
}
