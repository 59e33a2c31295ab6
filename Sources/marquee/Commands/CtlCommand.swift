import FoundationEssentials
import MarqueeApp
import MarqueeControl
import MarqueeHTTP

/// `marquee ctl [--socket PATH] [--follow] COMMAND [ARGUMENT...]`: sends one
/// command to a running player's control socket and prints the reply;
/// `--follow` then prints its events, one JSON line each, until interrupted
/// or the player goes. So a person on the box needs no socat. With `--http
/// URL` the command goes to the player's HTTP API instead (another box,
/// with its token and TLS), and `upload FILE [NAME]` and `media` manage its
/// upload folder (CtlCommand+Media.swift).
struct CtlCommand: Subcommand {
    static let name = "ctl"
    static let operands = "[COMMAND [ARGUMENT...]] | upload FILE [NAME] | media"
    static let defaultSocket = "/run/marquee/control.sock"
    /// The words that manage the upload folder, over HTTP only.
    static let mediaWords = ["upload", "media"]
    static let options: [OptionSpec] = [
        OptionSpec("--socket", "PATH", default: defaultSocket, .control, "the player's control socket ([controls.socket] path)"),
        OptionSpec("--follow", .control, "after the reply, print the player's events until interrupted (alone: observe every event)"),
        OptionSpec("--http", "URL", .control, "the player's HTTP API instead of its socket: http://127.0.0.1:8080, https://HOST:PORT"),
        OptionSpec("--token-file", "PATH", .control, "with --http: a file holding the API's bearer token ([controls.http] token_file)"),
        OptionSpec("--cacert", "PATH", default: "the system's trust store", .control,
                   "with an https --http: the certificate(s) to trust, e.g. the player's own cert_file"),
    ]
    static let summary = """
        Send a command to a running player (its control socket, or its HTTP API with --http) and print its reply
        (status, pause, seek -5, get stats, ...); --follow prints its events after. With --http, upload FILE [NAME] puts a file
        in its upload folder and media lists the folder.
        """

    let socket: String
    let follow: Bool
    let words: [String]
    let http: HTTPClient?

    init(parsing parser: inout ArgumentParser) throws {
        socket = try parser.option("--socket") ?? Self.defaultSocket
        follow = parser.flag("--follow")
        let url = try parser.option("--http")
        let tokenFile = try parser.option("--token-file")
        let trustFile = try parser.option("--cacert")
        words = try parser.positional(acceptingNumbers: true)
        guard !words.isEmpty || follow else { throw UsageError("ctl needs a command (\(ControlCommand.names.joined(separator: ", "))) or --follow") }
        http = try Self.client(url: url, tokenFile: tokenFile, trustFile: trustFile)
        if http != nil, follow { throw UsageError("ctl: --follow reads the control socket; over HTTP, events are GET /events") }
        if let first = words.first, Self.mediaWords.contains(first) {
            guard http != nil else { throw UsageError("ctl \(first): the upload folder is reached over HTTP; give --http URL") }
            try Self.checkMedia(words)
        } else if let first = words.first {
            // Checked here, so a typo is a usage error with a hint and not a round trip.
            do throws(ControlError) {
                _ = try ControlCommand(name: first, arguments: Array(words.dropFirst()))
            } catch {
                throw UsageError("ctl: \(error.message)")
            }
        }
    }

    func run() async -> Int32 {
        if let http { return run(over: http) }
        do {
            let client = try ControlSocketClient(path: socket)
            var status: Int32 = 0
            if !words.isEmpty { status = try exchange(words, on: client, id: 1) }
            guard follow else { return status }
            if words.first != "observe" { _ = try exchange(["observe"], on: client, id: 2, quiet: true) }
            while let line = try client.readLine() { Self.print(line) }
            return status
        } catch {
            Diagnostics.error("ctl: \(error)")
            return 1
        }
    }

    /// Sends `words` as a request and prints its reply (skipping events
    /// that come before it); the exit status is 1 for an error reply.
    private func exchange(_ words: [String], on client: ControlSocketClient, id: Int64, quiet: Bool = false) throws -> Int32 {
        let request = JSONValue.object(["command": .string(words[0]), "args": .array(words.dropFirst().map(JSONValue.string)),
                                        "id": .integer(id)])
        try client.send(request.jsonText)
        while let line = try client.readLine() {
            guard let reply = try? JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8)), reply["id"] == .integer(id) else {
                continue
            }
            if case .string(let message)? = reply["error"] {
                Diagnostics.error("ctl: \(message)")
                return 1
            }
            if !quiet { Self.print(Self.text(reply["result"] ?? .null)) }
            return 0
        }
        Diagnostics.error("ctl: \(socket): the player closed the connection without a reply")
        return 1
    }

    /// One line on stdout at once, unbuffered: also into a pipe, which a
    /// follower is usually stopped in with SIGINT.
    private static func print(_ line: String) {
        StandardStream.output.write(line + "\n")
    }

    /// A string result as it is ("ok"), anything else as JSON.
    static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.jsonText
    }
}
