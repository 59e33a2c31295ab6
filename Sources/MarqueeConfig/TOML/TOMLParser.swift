/// Reads TOML 1.0 documents (https://toml.io/en/v1.0.0). Checked against
/// every case the toml-test suite lists for 1.0 (see `toml-decoder`).
public enum TOML {
    /// Parses a whole document.
    /// - Parameters:
    ///   - bytes: the file's contents; must be UTF-8.
    ///   - file: the name errors carry ("config.toml", "<stdin>").
    /// - Returns: the root table; every value keeps where it was written.
    /// - Throws: `SourceError` at the first syntax error, with its line and column.
    public static func parse(utf8 bytes: [UInt8], file: String = "<input>") throws(SourceError) -> TOMLTable {
        let scanner: TOMLScanner
        do {
            scanner = try TOMLScanner(utf8: bytes)
        } catch {
            throw SourceError(file: file, location: error.location, message: error.message,
                              sourceLine: SourceLines(error.scalars)[error.location.line])
        }
        var parser = TOMLParser(scanner: scanner)
        do {
            return try parser.parseDocument()
        } catch {
            throw SourceError(file: file, location: error.location, message: error.message,
                              sourceLine: SourceLines(scanner.scalars)[error.location.line])
        }
    }

    /// Parses a document held in a string. See `parse(utf8:file:)`.
    public static func parse(_ text: String, file: String = "<input>") throws(SourceError) -> TOMLTable {
        try parse(utf8: Array(text.utf8), file: file)
    }
}

/// A syntax error before it is given its file name and quoted line.
struct TOMLSyntaxError: Error {
    let location: SourceLocation
    let message: String
}

/// The document level of the grammar: lines, headers, key/value pairs and
/// the rules on which tables may be defined or extended.
struct TOMLParser {
    var scanner: TOMLScanner
    private let root: TOMLTableBuilder
    /// The table the key/value lines under the last header go into.
    private var current: TOMLTableBuilder
    /// Arrays and inline tables open around the cursor; capped so a
    /// hostile file cannot exhaust the stack.
    var depth = 0
    static let maximumDepth = 128

    init(scanner: TOMLScanner) {
        self.scanner = scanner
        root = TOMLTableBuilder(origin: .root, at: SourceLocation(line: 1, column: 1))
        current = root
    }

    func fail(_ message: String, at location: SourceLocation? = nil) -> TOMLSyntaxError {
        TOMLSyntaxError(location: location ?? scanner.location, message: message)
    }

    mutating func parseDocument() throws(TOMLSyntaxError) -> TOMLTable {
        while true {
            scanner.skipWhitespace()
            guard let scalar = scanner.current else { break }
            if scanner.takeNewline() { continue }
            if scalar == "#" {
                try skipComment()
            } else if scalar == "[" {
                try parseHeader()
            } else {
                try parseKeyValue(into: current)
            }
            try finishLine()
        }
        return root.build()
    }

    /// After a header or key/value pair: optional spaces and a comment, then
    /// a line break or the end of the file.
    mutating func finishLine() throws(TOMLSyntaxError) {
        scanner.skipWhitespace()
        if scanner.current == "#" { try skipComment() }
        guard scanner.isAtEnd || scanner.takeNewline() else {
            throw fail("expected the end of the line, found \(describe(scanner.current))")
        }
    }

    /// Skips `# ...` up to (not including) the line break.
    mutating func skipComment() throws(TOMLSyntaxError) {
        scanner.advance()
        while let scalar = scanner.current, !scanner.atNewline {
            if scalar.isTOMLForbiddenControl {
                throw fail("control character \(hex(scalar)) is not allowed in a comment")
            }
            scanner.advance()
        }
    }

    // MARK: Keys

    typealias KeyPart = (name: String, location: SourceLocation)

    /// A dotted key (`a."b c".d`), with spaces allowed around the dots.
    mutating func parseKey() throws(TOMLSyntaxError) -> [KeyPart] {
        var parts = [try parseSimpleKey()]
        scanner.skipWhitespace()
        while scanner.take(".") {
            scanner.skipWhitespace()
            parts.append(try parseSimpleKey())
            scanner.skipWhitespace()
        }
        return parts
    }

    mutating func parseSimpleKey() throws(TOMLSyntaxError) -> KeyPart {
        let location = scanner.location
        switch scanner.current {
        case "\"":
            if scanner.looksAt("\"\"\"") { throw fail("a key cannot be a multi-line string") }
            return (try parseBasicString(), location)
        case "'":
            if scanner.looksAt("'''") { throw fail("a key cannot be a multi-line string") }
            return (try parseLiteralString(), location)
        default:
            var name = String.UnicodeScalarView()
            while let scalar = scanner.current, scalar.isBareKeyCharacter {
                name.append(scalar)
                scanner.advance()
            }
            guard !name.isEmpty else { throw fail("expected a key, found \(describe(scanner.current))") }
            return (String(name), location)
        }
    }

    // MARK: Key/value pairs

    mutating func parseKeyValue(into table: TOMLTableBuilder) throws(TOMLSyntaxError) {
        let key = try parseKey()
        guard scanner.take("=") else {
            throw fail("expected '=' after the key '\(dotted(key))', found \(describe(scanner.current))")
        }
        scanner.skipWhitespace()
        let value = try parseValue()
        try insert(value, at: key, into: table)
    }

    /// Puts `value` at a dotted key: each part before the last names a table
    /// that either does not exist yet (it is created) or was itself created
    /// by dotted keys of this table; the last part must be new.
    func insert(_ value: TOMLValue, at key: [KeyPart], into table: TOMLTableBuilder) throws(TOMLSyntaxError) {
        var table = table
        for (index, part) in key.dropLast().enumerated() {
            switch table[part.name] {
            case nil:
                let child = TOMLTableBuilder(origin: .dotted, at: part.location)
                table.set(part.name, .table(child), keyLocation: part.location)
                table = child
            case .table(let child) where child.origin == .dotted:
                table = child
            case .table(let child):
                throw fail("cannot add keys to the table '\(dotted(key[...index]))' with a dotted key: it was defined by a header at \(child.location)",
                           at: part.location)
            case .tableArray:
                throw fail("cannot add keys to the array of tables '\(dotted(key[...index]))' with a dotted key", at: part.location)
            case .value(let existing):
                throw fail("'\(dotted(key[...index]))' is already a \(existing.typeName) (at \(existing.location)), not a table",
                           at: part.location)
            }
        }
        let last = key[key.count - 1]
        if let existing = table[last.name] {
            throw fail("the key '\(dotted(key))' is already defined at \(location(of: existing))", at: last.location)
        }
        table.set(last.name, .value(value), keyLocation: last.location)
    }

    // MARK: Headers

    /// `[a.b]` or `[[a.b]]`: from here on, key/value lines go into that table.
    mutating func parseHeader() throws(TOMLSyntaxError) {
        let location = scanner.location
        let isArray = scanner.looksAt("[[")
        scanner.advance(isArray ? 2 : 1)
        scanner.skipWhitespace()
        let key = try parseKey()
        guard scanner.take("]"), !isArray || scanner.take("]") else {
            throw fail("expected '\(isArray ? "]]" : "]")' to close the table header, found \(describe(scanner.current))")
        }
        var table = root
        for (index, part) in key.dropLast().enumerated() {
            switch table[part.name] {
            case nil:
                let child = TOMLTableBuilder(origin: .implicit, at: part.location)
                table.set(part.name, .table(child), keyLocation: part.location)
                table = child
            case .table(let child):
                table = child
            case .tableArray(let tables, _):
                table = tables[tables.count - 1]
            case .value(let existing):
                throw fail("'\(dotted(key[...index]))' is a \(existing.typeName) defined at \(existing.location), not a table",
                           at: part.location)
            }
        }
        let last = key[key.count - 1]
        let name = dotted(key)
        if isArray {
            let element = TOMLTableBuilder(origin: .header, at: location)
            switch table[last.name] {
            case nil:
                table.set(last.name, .tableArray([element], location: location), keyLocation: last.location)
            case .tableArray:
                table.appendToArray(last.name, element)
            case let existing?:
                throw fail("cannot define '\(name)' as an array of tables: it is already defined at \(self.location(of: existing))",
                           at: last.location)
            }
            current = element
        } else {
            switch table[last.name] {
            case nil:
                let child = TOMLTableBuilder(origin: .header, at: location)
                table.set(last.name, .table(child), keyLocation: last.location)
                current = child
            case .table(let child) where child.origin == .implicit:
                child.origin = .header
                child.location = location
                current = child
            case .table(let child) where child.origin == .dotted:
                throw fail("the table '\(name)' was already defined with dotted keys at \(child.location)", at: last.location)
            case let existing?:
                throw fail("the table '\(name)' is already defined at \(self.location(of: existing))", at: last.location)
            }
        }
    }

    // MARK: Messages

    func location(of slot: TOMLTableBuilder.Slot) -> SourceLocation {
        switch slot {
        case .value(let value): value.location
        case .table(let table): table.location
        case .tableArray(_, let location): location
        }
    }

    func dotted(_ key: some Collection<KeyPart>) -> String {
        key.map { part in
            part.name.unicodeScalars.allSatisfy(\.isBareKeyCharacter) && !part.name.isEmpty
                ? part.name : "\"\(part.name)\""
        }.joined(separator: ".")
    }

    func describe(_ scalar: Unicode.Scalar?) -> String {
        guard let scalar else { return "the end of the file" }
        switch scalar {
        case "\n", "\r": return "a line break"
        case _ where scalar.isTOMLForbiddenControl: return "control character \(hex(scalar))"
        default: return "'\(scalar)'"
        }
    }

    func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
