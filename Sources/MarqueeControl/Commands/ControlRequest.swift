import FoundationEssentials

/// How command lines are written on a control channel, and so how replies are.
public enum CommandFormat: String, Sendable, CaseIterable {
    /// `seek +5` in; `ok` or `error: MESSAGE` out.
    case text
    /// `{"command": "seek", "args": ["+5"], "id": 7}` in;
    /// `{"id":7,"result":...}` or `{"id":7,"error":"MESSAGE"}` out.
    case json
}

/// A command as it arrived on a channel, with the `id` to answer with.
public struct ControlRequest: Sendable, Equatable {
    /// The JSON request's `id`, echoed in the reply; nil for text.
    public var id: JSONValue?
    public var command: ControlCommand

    public init(id: JSONValue? = nil, command: ControlCommand) {
        self.id = id
        self.command = command
    }

    /// Longest line accepted, in bytes; longer lines get an error reply.
    public static let maximumLineLength = 4096
    /// Deepest JSON nesting accepted; a command needs 2.
    static let maximumDepth = 16

    /// Reads one line in `format`.
    /// - Returns: nil for a blank line or a `#` comment (no reply is due).
    /// - Throws: `ControlRequest.Failure`, carrying the id when one could be read
    ///   so the error reply can be matched to its request.
    public static func parse(_ line: String, format: CommandFormat) throws(Failure) -> ControlRequest? {
        let trimmed = line.trimmingSpaces
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        guard trimmed.utf8.count <= maximumLineLength else {
            throw Failure(id: nil, error: ControlError("line too long (more than \(maximumLineLength) bytes)"))
        }
        switch format {
        case .text:
            do {
                return ControlRequest(command: try ControlCommand(parsing: trimmed))
            } catch {
                throw Failure(id: nil, error: error)
            }
        case .json:
            return try parseJSON(trimmed)
        }
    }

    /// Reads one piece a `LineSplitter` cut: a line as `parse(_:format:)`
    /// does; a line that is not UTF-8 or too long is a failure saying so.
    public static func parse(_ piece: LineSplitter.Piece, format: CommandFormat) throws(Failure) -> ControlRequest? {
        switch piece {
        case .line(let line): return try parse(line, format: format)
        case .notUTF8: throw Failure(id: nil, error: ControlError("line is not valid UTF-8"))
        case .tooLong: throw Failure(id: nil, error: ControlError("line too long (more than \(maximumLineLength) bytes)"))
        }
    }

    public struct Failure: Error, Sendable, Equatable {
        public let id: JSONValue?
        public let error: ControlError

        public init(id: JSONValue?, error: ControlError) {
            self.id = id
            self.error = error
        }
    }

    private static func parseJSON(_ line: String) throws(Failure) -> ControlRequest {
        guard JSONValue.nestingDepth(of: line) <= maximumDepth else {
            throw Failure(id: nil, error: ControlError("malformed JSON: nested too deep"))
        }
        let object: [String: JSONValue]
        do {
            object = try JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))
        } catch {
            throw Failure(id: nil, error: ControlError("malformed JSON: expected an object like {\"command\": \"pause\", \"id\": 1}"))
        }
        let id = object["id"]
        func fail(_ message: String) -> Failure { Failure(id: id, error: ControlError(message)) }
        switch id {
        case nil, .null?, .integer?, .number?, .string?: break
        default: throw Failure(id: nil, error: ControlError("'id' must be a number, a string or null"))
        }
        if let unknown = object.keys.sorted().first(where: { !["command", "args", "id"].contains($0) }) {
            throw fail("unknown field '\(unknown)' (fields: command, args, id)")
        }
        guard case .string(let name)? = object["command"] else { throw fail("'command' must be a string, e.g. \"pause\"") }
        var arguments: [String] = []
        switch object["args"] {
        case nil, .null?: break
        case .array(let elements)?:
            for element in elements {
                switch element {
                case .string(let text): arguments.append(text)
                case .integer(let integer): arguments.append(String(integer))
                case .number(let number): arguments.append(JSONValue.text(number))
                default: throw fail("'args' must hold strings or numbers")
                }
            }
        default: throw fail("'args' must be an array, e.g. [\"+5\"]")
        }
        do {
            return ControlRequest(id: id, command: try ControlCommand(name: name, arguments: arguments))
        } catch {
            throw Failure(id: id, error: error)
        }
    }
}
