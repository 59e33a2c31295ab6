/// The problems found while reading one configuration file, gathered so
/// they are all reported at once.
final class ConfigDiagnostics {
    let file: String
    private let lines: SourceLines
    private(set) var errors: [SourceError] = []
    /// What is valid but surely not meant (a schedule entry that can never win).
    private(set) var warnings: [SourceError] = []
    /// Which section each known key belongs to, for "it belongs in [audio]".
    var homeOfKey: [String: String] = [:]

    init(file: String, text: String) {
        self.file = file
        lines = SourceLines(Array(text.unicodeScalars))
    }

    func error(_ message: String, at location: SourceLocation) {
        errors.append(SourceError(file: file, location: location, message: message, sourceLine: lines[location.line]))
    }

    /// `message` as "warning: MESSAGE".
    func warning(_ message: String, at location: SourceLocation) {
        warnings.append(SourceError(file: file, location: location, message: "warning: \(message)", sourceLine: lines[location.line]))
    }
}

/// Reads the keys of one TOML table into typed settings, checking type,
/// range and spelling; every key it is asked for becomes known, and
/// `finish()` reports the keys nobody asked for. A wrong value leaves the
/// setting at its default and records an error pointing at the value.
final class TableReader {
    let table: TOMLTable
    /// "display", "controls.gpio[1]"; empty for the document root.
    let name: String
    let location: SourceLocation
    let diagnostics: ConfigDiagnostics
    private(set) var known: [String] = []

    init(_ table: TOMLTable, name: String, at location: SourceLocation, diagnostics: ConfigDiagnostics) {
        self.table = table
        self.name = name
        self.location = location
        self.diagnostics = diagnostics
    }

    private func qualified(_ key: String) -> String { name.isEmpty ? key : "\(name).\(key)" }

    /// The value at `key` if it is there; marks the key known.
    func value(_ key: String) -> TOMLValue? {
        known.append(key)
        return table[key]
    }

    func typeError(_ key: String, expected: String, found value: TOMLValue) {
        diagnostics.error("\(qualified(key)): expected \(expected), found \(article(value.typeName))", at: value.location)
    }

    func error(_ key: String, _ message: String, at location: SourceLocation) {
        diagnostics.error("\(qualified(key)): \(message)", at: location)
    }

    func read(_ target: inout String, _ key: String) {
        guard let value = value(key) else { return }
        guard let text = value.string else { return typeError(key, expected: "a string", found: value) }
        target = text
    }

    func read(_ target: inout Bool, _ key: String) {
        guard let value = value(key) else { return }
        guard let flag = value.boolean else { return typeError(key, expected: "true or false", found: value) }
        target = flag
    }

    func read(_ target: inout Int, _ key: String, in range: ClosedRange<Int>, unit: String = "") {
        guard let value = value(key) else { return }
        guard let number = value.integer else { return typeError(key, expected: "an integer", found: value) }
        guard let exact = Int(exactly: number), range.contains(exact) else {
            return error(key, "\(number)\(unit) is out of range \(range.lowerBound)...\(range.upperBound)\(unit)", at: value.location)
        }
        target = exact
    }

    /// A float or an integer.
    func read(_ target: inout Double, _ key: String, in range: ClosedRange<Double>, unit: String = "") {
        guard let value = value(key) else { return }
        guard let number = value.number else { return typeError(key, expected: "a number", found: value) }
        guard range.contains(number) else {
            let bounds = "\(format(range.lowerBound))...\(format(range.upperBound))"
            return error(key, "\(format(number))\(unit) is out of range \(bounds)\(unit)", at: value.location)
        }
        target = number
    }

    /// One of a closed set of names.
    func read<Choice: RawRepresentable & CaseIterable>(_ target: inout Choice, _ key: String) where Choice.RawValue == String {
        guard let value = value(key) else { return }
        let names = Choice.allCases.map(\.rawValue)
        guard let text = value.string else {
            return typeError(key, expected: "one of \(names.joined(separator: ", "))", found: value)
        }
        guard let choice = Choice(rawValue: text) else {
            return error(key, "'\(text)' is not one of \(names.joined(separator: ", "))\(Suggestion.hint(for: text, in: names))",
                         at: value.location)
        }
        target = choice
    }

    /// A string in a format `parse` understands (`described` says which, for the message).
    func read<T>(_ target: inout T, _ key: String, described: String, parse: (String) -> T?) {
        guard let value = value(key) else { return }
        guard let text = value.string else { return typeError(key, expected: described, found: value) }
        guard let parsed = parse(text) else { return error(key, "'\(text)' is not \(described)", at: value.location) }
        target = parsed
    }

    func read(_ target: inout [String], _ key: String) {
        guard let value = value(key) else { return }
        guard let elements = value.array else { return typeError(key, expected: "an array of strings", found: value) }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = element.string else {
                typeError("\(key)[\(index)]", expected: "a string", found: element)
                continue
            }
            strings.append(text)
        }
        target = strings
    }

    /// Strings, or inline tables `{ path, duration }`: each wrong element
    /// is an error at that element, and the rest are kept.
    func read(_ target: inout [PlaylistEntry], _ key: String) {
        guard let value = value(key) else { return }
        guard let elements = value.array else { return typeError(key, expected: "an array of paths", found: value) }
        target = elements.enumerated().compactMap { index, element in
            if let path = element.string { return PlaylistEntry(path: path) }
            guard let table = element.table else {
                typeError("\(key)[\(index)]", expected: "a path or a table { path, duration, captions }", found: element)
                return nil
            }
            let reader = TableReader(table, name: "\(qualified(key))[\(index)]", at: element.location, diagnostics: diagnostics)
            var path = "", captions = ""
            var duration = -1.0
            reader.read(&path, "path")
            reader.read(&duration, "duration", in: PlaylistEntry.durations, unit: " s")
            reader.read(&captions, "captions")
            reader.finish()
            guard let given = reader.value("path") else {
                error("\(key)[\(index)]", "has no path (write { path = \"FILE\", duration = SECONDS })", at: element.location)
                return nil
            }
            guard !path.isEmpty else {
                if given.string != nil { error("\(key)[\(index)].path", "is empty", at: given.location) }
                return nil
            }
            return PlaylistEntry(path: path, duration: duration < 0 ? nil : duration, captions: captions.isEmpty ? nil : captions)
        }
    }

    /// The sub-table at `key` (an absent one reads as empty, so defaults apply).
    func table(_ key: String) -> TableReader? {
        guard let value = value(key) else {
            return TableReader(TOMLTable(), name: qualified(key), at: location, diagnostics: diagnostics)
        }
        guard let table = value.table else {
            typeError(key, expected: "a table", found: value)
            return nil
        }
        return TableReader(table, name: qualified(key), at: value.location, diagnostics: diagnostics)
    }

    /// `[[key]]` entries, each a table.
    func tables(_ key: String) -> [TableReader] {
        guard let value = value(key) else { return [] }
        guard let elements = value.array else {
            typeError(key, expected: "an array of tables ([[\(qualified(key))]])", found: value)
            return []
        }
        return elements.enumerated().compactMap { index, element in
            guard let table = element.table else {
                typeError("\(key)[\(index)]", expected: "a table", found: element)
                return nil
            }
            return TableReader(table, name: "\(qualified(key))[\(index)]", at: element.location, diagnostics: diagnostics)
        }
    }

    /// Reports every key of the table that was never asked for, with the
    /// closest known key as a suggestion.
    func finish() {
        for entry in table.entries where !known.contains(entry.key) {
            let place = name.isEmpty ? "at the top level" : "in [\(name)]"
            let isSection = entry.value.table != nil && name.isEmpty
            var hint = Suggestion.hint(for: entry.key, in: known, quote: isSection ? { "[\($0)]" } : { "'\($0)'" })
            if hint.isEmpty, let section = diagnostics.homeOfKey[entry.key], section != name { hint = " (it belongs in [\(section)])" }
            let what = isSection ? "section [\(entry.key)]" : "key '\(entry.key)' \(place)"
            diagnostics.error("unknown \(what)\(hint)", at: entry.keyLocation)
        }
    }

    func article(_ typeName: String) -> String {
        (["a", "e", "i", "o", "u"].contains(typeName.prefix(1)) ? "an " : "a ") + typeName
    }

    private func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
