/// Values: what follows `=` in a key/value pair, and the elements of arrays.
extension TOMLParser {
    mutating func parseValue() throws(TOMLSyntaxError) -> TOMLValue {
        let location = scanner.location
        switch scanner.current {
        case "\"":
            let text = scanner.looksAt("\"\"\"") ? try parseMultilineBasicString() : try parseBasicString()
            return TOMLValue(.string(text), at: location)
        case "'":
            let text = scanner.looksAt("'''") ? try parseMultilineLiteralString() : try parseLiteralString()
            return TOMLValue(.string(text), at: location)
        case "[":
            return try parseArray()
        case "{":
            return try parseInlineTable()
        case let scalar? where scalar.isBareKeyCharacter || scalar == "+":
            return try parseScalarToken()
        default:
            throw fail("expected a value, found \(describe(scanner.current))")
        }
    }

    /// `[ v, v, ... ]`: line breaks and comments may go anywhere between
    /// elements, and a trailing comma is allowed.
    mutating func parseArray() throws(TOMLSyntaxError) -> TOMLValue {
        let location = scanner.location
        try enterNesting()
        defer { depth -= 1 }
        scanner.advance()
        var elements: [TOMLValue] = []
        while true {
            try skipArraySpace()
            if scanner.take("]") { break }
            elements.append(try parseValue())
            try skipArraySpace()
            if scanner.take(",") { continue }
            if scanner.take("]") { break }
            throw fail(scanner.isAtEnd ? "unterminated array (opened at \(location))"
                                       : "expected ',' or ']' in the array, found \(describe(scanner.current))")
        }
        return TOMLValue(.array(elements), at: location)
    }

    private mutating func enterNesting() throws(TOMLSyntaxError) {
        guard depth < Self.maximumDepth else {
            throw fail("arrays and inline tables are nested more than \(Self.maximumDepth) deep")
        }
        depth += 1
    }

    private mutating func skipArraySpace() throws(TOMLSyntaxError) {
        while true {
            scanner.skipWhitespace()
            if scanner.takeNewline() { continue }
            if scanner.current == "#" { try skipComment(); continue }
            return
        }
    }

    /// `{ k = v, ... }` on one line (TOML 1.0), no trailing comma; closed
    /// to later additions once read.
    mutating func parseInlineTable() throws(TOMLSyntaxError) -> TOMLValue {
        let location = scanner.location
        try enterNesting()
        defer { depth -= 1 }
        scanner.advance()
        let table = TOMLTableBuilder(origin: .inline, at: location)
        scanner.skipWhitespace()
        if !scanner.take("}") {
            while true {
                if scanner.atNewline || scanner.current == "\r" { throw fail("line breaks are not allowed in an inline table") }
                if scanner.current == "}" { throw fail("a trailing comma is not allowed in an inline table") }
                try parseKeyValue(into: table)
                scanner.skipWhitespace()
                if scanner.take(",") { scanner.skipWhitespace(); continue }
                if scanner.take("}") { break }
                if scanner.atNewline { throw fail("line breaks are not allowed in an inline table") }
                throw fail("expected ',' or '}' in the inline table, found \(describe(scanner.current))")
            }
        }
        return TOMLValue(.table(table.build()), at: location)
    }

    /// Booleans, numbers and dates: one run of `A-Za-z0-9_+-.:`, plus the
    /// space TOML allows between a date and a time.
    mutating func parseScalarToken() throws(TOMLSyntaxError) -> TOMLValue {
        let location = scanner.location
        var token: [Unicode.Scalar] = []
        func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isBareKeyCharacter || scalar == "+" || scalar == "." || scalar == ":"
        }
        while let scalar = scanner.current {
            if isTokenScalar(scalar) {
                token.append(scalar)
                scanner.advance()
            } else if scalar == " ", TOMLDateTimeText.isFullDate(token), scanner.peek(1)?.isASCIIDigit == true {
                token.append("T")
                scanner.advance()
            } else {
                break
            }
        }
        let text = String(String.UnicodeScalarView(token))
        let kind: TOMLValue.Kind
        if text == "true" {
            kind = .boolean(true)
        } else if text == "false" {
            kind = .boolean(false)
        } else if TOMLDateTimeText.looksLikeDateOrTime(token) {
            do {
                kind = try TOMLDateTimeText.parse(token)
            } catch {
                throw fail("invalid date or time '\(text)': \(error.reason)", at: location)
            }
        } else {
            do {
                kind = try TOMLNumberText.parse(token)
            } catch {
                throw fail("invalid value '\(text)': \(error.reason)", at: location)
            }
        }
        return TOMLValue(kind, at: location)
    }
}

/// Why a token is not a valid number, date or time.
struct TOMLTokenError: Error {
    let reason: String
}
