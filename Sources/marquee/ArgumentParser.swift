/// A small option reader: flags and `--name VALUE` options in any order,
/// everything else positional. Unknown options are errors, not ignored.
/// Reading an option the command did not declare (`OptionSpec`) is a
/// programming error: it would be an option without help.
struct ArgumentParser {
    let command: String
    private let declared: Set<String>
    private var remaining: [String]
    private var positionals: [String] = []

    init(command: String, options: [OptionSpec], arguments: [String]) {
        self.command = command
        declared = Set(options.map(\.name))
        remaining = arguments
    }

    mutating func flag(_ name: String) -> Bool {
        precondition(declared.contains(name), "\(command) reads \(name), which its options do not declare")
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    mutating func option(_ name: String) throws -> String? {
        precondition(declared.contains(name), "\(command) reads \(name), which its options do not declare")
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count else { throw UsageError("\(name) needs a value") }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
    }

    /// Every value of an option that may be given more than once (`--at 1 --at 5`), in order.
    mutating func options(_ name: String) throws -> [String] {
        var values: [String] = []
        while let value = try option(name) { values.append(value) }
        return values
    }

    mutating func option<T: LosslessStringConvertible>(_ name: String, as type: T.Type) throws -> T? {
        guard let text = try option(name) else { return nil }
        guard let value = T(text) else { throw UsageError("\(name): '\(text)' is not a valid \(T.self)") }
        return value
    }

    /// Everything not consumed as an option; call after reading all options.
    /// - Parameter acceptingNumbers: "-5" is an operand (`ctl seek -5`), not an option.
    mutating func positional(acceptingNumbers: Bool = false) throws -> [String] {
        var rest: [String] = []
        var afterSeparator = false
        for argument in remaining {
            if argument == "--", !afterSeparator { afterSeparator = true; continue }
            if argument.hasPrefix("-"), argument != "-", !afterSeparator, !(acceptingNumbers && Double(argument) != nil) {
                throw UsageError("unknown option '\(argument)' for \(command)")
            }
            rest.append(argument)
        }
        remaining = []
        positionals = rest
        return rest
    }

    func finish() throws {
        if let extra = remaining.first { throw UsageError("unexpected argument '\(extra)' for \(command)") }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
