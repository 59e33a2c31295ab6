import MarqueeCore

/// One command of Marquee's control language, the same whether it arrives
/// as a text line (`seek +5`), as JSON (`{"command": "seek", "args": ["+5"]}`)
/// or from a button's `action`.
public enum ControlCommand: Sendable, Equatable, CustomStringConvertible {
    case play, pause, toggle
    /// Pause and go back to the start of the current item.
    case stop
    case seek(SeekTarget)
    case next
    case previous
    /// The playlist item at `index`, counted from 1 as `status` shows it.
    case goTo(index: Int)
    case loop(LoopMode)
    /// Playback speed in `PlaybackRate.range`, or backwards below zero;
    /// setting it also plays.
    case rate(Double)
    /// Pause and show the frame this many frames on (back, below zero).
    case step(Int)
    /// Software gain, 0...1.
    case volume(Double)
    case mute, unmute, status
    /// Switch the display off (the monitor sleeps; playback pauses) or on
    /// again (the picture back; playback resumes if it was playing).
    case screen(on: Bool)
    /// Text over the video for `seconds` (mpv's show-text).
    case showText(String, seconds: Double)
    /// Shows or hides the `[[overlay]]` of that name.
    case overlay(name: String, visible: Bool)
    /// Captions on (in the configured languages), off, or in a language first.
    case captions(CaptionsChoice)
    /// Read the configuration file again.
    case reload
    /// Stop playing and exit.
    case quit
    /// Read one property by name.
    case get(PlayerProperty)
    /// On the control socket: send this connection these events from now
    /// on (replacing what it observed before).
    case observe(EventSubscription)
    /// On the control socket: no more events for this connection.
    case unobserve

    public enum CaptionsChoice: Sendable, Equatable {
        case on, off
        /// ISO 639 code, "de" or "deu"; an item without it shows its first captions.
        case language(String)
    }

    public enum SeekTarget: Sendable, Equatable {
        /// Seconds from the start of the current item.
        case absolute(Double)
        /// Seconds from the current position (negative: back).
        case relative(Double)
    }

    /// Every command name, as written.
    public static let names = ["play", "pause", "toggle", "stop", "seek", "next", "prev", "goto", "loop",
                               "rate", "step", "volume", "mute", "unmute", "screen", "show-text", "overlay", "captions", "status",
                               "reload", "quit", "get", "observe", "unobserve"]

    /// How long `show-text` shows its text when it does not say.
    public static let showTextSeconds = 3.0

    /// Parses a text line: a command name, then its arguments, separated by
    /// spaces or tabs.
    /// - Throws: `ControlError` naming the command and what is wrong.
    public init(parsing line: String) throws(ControlError) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let name = words.first else { throw ControlError("empty command") }
        try self.init(name: name, arguments: Array(words.dropFirst()))
    }

    /// A command from its name and arguments (the JSON form's fields).
    public init(name: String, arguments: [String]) throws(ControlError) {
        let command = name.lowercased()
        func expect(_ count: Int, _ usage: String) throws(ControlError) {
            guard arguments.count == count else {
                throw ControlError(count == 0 ? "\(command) takes no arguments" : "usage: \(command) \(usage)")
            }
        }
        switch command {
        case "play": try expect(0, ""); self = .play
        case "pause": try expect(0, ""); self = .pause
        case "toggle": try expect(0, ""); self = .toggle
        case "stop": try expect(0, ""); self = .stop
        case "next": try expect(0, ""); self = .next
        case "prev", "previous": try expect(0, ""); self = .previous
        case "mute": try expect(0, ""); self = .mute
        case "unmute": try expect(0, ""); self = .unmute
        case "status": try expect(0, ""); self = .status
        case "reload": try expect(0, ""); self = .reload
        case "quit": try expect(0, ""); self = .quit
        case "unobserve": try expect(0, ""); self = .unobserve
        case "observe": self = .observe(try EventSubscription(arguments: arguments))
        case "get":
            try expect(1, "PROPERTY (\(PlayerProperty.names.joined(separator: ", ")))")
            guard let property = PlayerProperty(rawValue: arguments[0].lowercased()) else {
                let hint = CommandSuggestion.closest(to: arguments[0].lowercased(), in: PlayerProperty.names)
                    .map { " (did you mean '\($0)'?)" } ?? ""
                throw ControlError("get: unknown property '\(arguments[0].prefix(40))'\(hint); properties: \(PlayerProperty.names.joined(separator: ", "))")
            }
            self = .get(property)
        case "seek":
            try expect(1, "SECONDS | +SECONDS | -SECONDS")
            self = .seek(try Self.seekTarget(arguments[0]))
        case "goto":
            try expect(1, "N (a playlist position, from 1)")
            guard let index = Int(arguments[0]), index >= 1 else {
                throw ControlError("goto: '\(arguments[0])' is not a playlist position (1, 2, ...)")
            }
            self = .goTo(index: index)
        case "loop":
            try expect(1, "item | playlist | none")
            guard let mode = LoopMode(rawValue: arguments[0].lowercased()) else {
                throw ControlError("loop: '\(arguments[0])' is not item, playlist or none")
            }
            self = .loop(mode)
        case "rate":
            try expect(1, "R (\(PlaybackRate.eitherWayDescription))")
            guard let rate = Self.number(arguments[0]), PlaybackRate.isPlayable(rate) else {
                throw ControlError("rate: '\(arguments[0])' is not a rate \(PlaybackRate.eitherWayDescription)")
            }
            self = .rate(rate)
        case "step":
            guard arguments.count <= 1 else { throw ControlError("usage: step [+N | -N] (frames, 1 to \(Self.stepLimit); +1 alone)") }
            guard let count = arguments.first.map({ Int($0.hasPrefix("+") ? String($0.dropFirst()) : $0) }) ?? 1,
                  count != 0, abs(count) <= Self.stepLimit else {
                throw ControlError("step: '\(arguments[0])' is not a number of frames, +1 to +\(Self.stepLimit) or -1 to -\(Self.stepLimit)")
            }
            self = .step(count)
        case "screen":
            try expect(1, "on | off")
            switch arguments[0].lowercased() {
            case "on": self = .screen(on: true)
            case "off": self = .screen(on: false)
            default: throw ControlError("screen: '\(arguments[0].prefix(40))' is not on or off")
            }
        case "show-text":
            // A last word that is a number is how long; the words before it are the text.
            let usage = "usage: show-text TEXT [SECONDS] (SECONDS from 0.1 to 3600, default \(Self.format(Self.showTextSeconds)))"
            var words = arguments
            var seconds = Self.showTextSeconds
            if words.count > 1, let last = words.last, let number = Self.number(last) {
                guard (0.1...3600).contains(number) else { throw ControlError(usage) }
                seconds = number
                words.removeLast()
            }
            let text = words.joined(separator: " ")
            guard !text.isEmpty, text.count <= 1000 else { throw ControlError(usage) }
            self = .showText(text, seconds: seconds)
        case "overlay":
            try expect(2, "NAME on | off")
            switch arguments[1].lowercased() {
            case "on": self = .overlay(name: arguments[0], visible: true)
            case "off": self = .overlay(name: arguments[0], visible: false)
            default: throw ControlError("overlay: '\(arguments[1].prefix(40))' is not on or off")
            }
        case "captions":
            try expect(1, "on | off | LANG")
            switch arguments[0].lowercased() {
            case "on": self = .captions(.on)
            case "off": self = .captions(.off)
            case let code where (2...3).contains(code.count) && code.allSatisfy({ ("a"..."z").contains($0) }): self = .captions(.language(code))
            default: throw ControlError("captions: '\(arguments[0].prefix(40))' is not on, off or a language code (\"de\", \"eng\")")
            }
        case "volume":
            try expect(1, "V (0 to 1)")
            guard let volume = Self.number(arguments[0]), (0...1).contains(volume) else {
                throw ControlError("volume: '\(arguments[0])' is not a volume from 0 to 1")
            }
            self = .volume(volume)
        default:
            let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
            let hint = CommandSuggestion.closest(to: command, in: Self.names).map { " (did you mean '\($0)'?)" } ?? ""
            throw ControlError("unknown command '\(shown)'\(hint)")
        }
    }

    /// The most frames one step goes: each is decoded, so a step of
    /// thousands is a seek, which says so better.
    static let stepLimit = 1000

    private static func seekTarget(_ text: String) throws(ControlError) -> SeekTarget {
        let relative = text.hasPrefix("+") || text.hasPrefix("-")
        guard let seconds = number(relative ? String(text.dropFirst()) : text), seconds >= 0 else {
            throw ControlError("seek: '\(text)' is not SECONDS, +SECONDS or -SECONDS")
        }
        if !relative { return .absolute(seconds) }
        return .relative(text.hasPrefix("-") ? -seconds : seconds)
    }

    /// A finite decimal number ("1", "0.5", "2e1"); not "nan", "inf" or hex.
    private static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }),
              let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The command's name, as written.
    public var name: String { String(description.prefix { $0 != " " }) }

    /// The command as a text line; parsing it gives the same command.
    public var description: String {
        switch self {
        case .play: "play"
        case .pause: "pause"
        case .toggle: "toggle"
        case .stop: "stop"
        case .seek(.absolute(let seconds)): "seek \(Self.format(seconds))"
        case .seek(.relative(let seconds)): "seek \(seconds < 0 ? "-" : "+")\(Self.format(abs(seconds)))"
        case .next: "next"
        case .previous: "prev"
        case .goTo(let index): "goto \(index)"
        case .loop(let mode): "loop \(mode.rawValue)"
        case .rate(let rate): "rate \(Self.format(rate))"
        case .step(let count): "step \(count < 0 ? "" : "+")\(count)"
        case .volume(let volume): "volume \(Self.format(volume))"
        case .mute: "mute"
        case .unmute: "unmute"
        case .screen(let on): on ? "screen on" : "screen off"
        case .showText(let text, let seconds): "show-text \(text) \(Self.format(seconds))"
        case .overlay(let name, let visible): "overlay \(name) \(visible ? "on" : "off")"
        case .captions(.on): "captions on"
        case .captions(.off): "captions off"
        case .captions(.language(let code)): "captions \(code)"
        case .status: "status"
        case .reload: "reload"
        case .quit: "quit"
        case .get(let property): "get \(property.rawValue)"
        case .observe(let subscription): (["observe"] + subscription.arguments).joined(separator: " ")
        case .unobserve: "unobserve"
        }
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

/// Why a command line could not be parsed or carried out. The message
/// names the command and the problem; it is what the error reply says.
public struct ControlError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
