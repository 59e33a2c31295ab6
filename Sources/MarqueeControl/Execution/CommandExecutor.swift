import MarqueeCore
import Synchronization

/// Carries out control commands on a player and says how each went. One
/// executor serves every channel (stdin, buttons), one command at a time,
/// so two buttons pressed together cannot interleave a toggle.
///
/// Thread-safe; `handle` returns once the command has been applied (a seek
/// has been started, not finished).
public final class CommandExecutor: Sendable {
    /// Reads the configuration again; returns what changed (for the reply) or why it failed.
    public typealias ReloadHandler = @Sendable () -> Result<String, ControlError>

    private let target: any PlaybackTarget
    private let reload: ReloadHandler
    private let quit: @Sendable () -> Void
    private let serial = Mutex(())

    /// - Parameters:
    ///   - reload: runs for `reload`; nil answers that nothing can be reloaded.
    ///   - quit: runs for `quit`, after the reply has been sent.
    public init(target: any PlaybackTarget, reload: ReloadHandler? = nil, quit: @escaping @Sendable () -> Void) {
        self.target = target
        self.reload = reload ?? { .failure(ControlError("reload: no configuration file to reload (start with --config FILE)")) }
        self.quit = quit
    }

    /// Applies `request`, then passes the reply to `send` (before `quit`
    /// runs, so a quit is acknowledged before the process ends).
    public func handle(_ request: ControlRequest, send: (ControlReply) -> Void) {
        let outcome = serial.withLock { _ in execute(request.command) }
        send(ControlReply(id: request.id, outcome: outcome))
        if request.command == .quit { quit() }
    }

    /// Applies one command; what a reply would carry.
    public func execute(_ command: ControlCommand) -> Result<ControlResult, ControlError> {
        let status = target.status
        switch command {
        case .play: target.play()
        case .pause: target.pause()
        case .toggle: status.state == .playing ? target.pause() : target.play()
        case .stop:
            target.pause()
            target.seek(to: 0)
        case .seek(let seek):
            guard status.index != nil else { return .failure(ControlError("seek: nothing is playing")) }
            var seconds = switch seek {
            case .absolute(let time): time
            case .relative(let delta): status.time + delta
            }
            seconds = max(0, seconds)
            if let duration = status.duration { seconds = min(seconds, duration) }
            target.seek(to: seconds)
        case .next:
            guard let index = status.index else { return .failure(ControlError("next: nothing is playing (use goto N)")) }
            if index + 1 < status.count {
                _ = target.playItem(at: index + 1)
            } else if status.loop == .playlist {
                _ = target.playItem(at: 0)
            } else {
                return .failure(ControlError("next: already at the last item (\(status.count) of \(status.count))"))
            }
        case .previous:
            guard let index = status.index else { return .failure(ControlError("prev: nothing is playing (use goto N)")) }
            if index > 0 {
                _ = target.playItem(at: index - 1)
            } else if status.loop == .playlist {
                _ = target.playItem(at: status.count - 1)
            } else {
                return .failure(ControlError("prev: already at the first item"))
            }
        case .goTo(let position):
            guard position <= status.count, target.playItem(at: position - 1) else {
                return .failure(ControlError("goto: no item \(position); the playlist has \(status.count)"))
            }
        case .loop(let mode): target.setLoopMode(mode)
        case .rate(let rate):
            do throws(ControlError) { try target.setRate(rate) } catch { return .failure(error) }
        case .step(let count):
            guard status.index != nil else { return .failure(ControlError("step: nothing is playing")) }
            do throws(ControlError) { try target.step(by: count) } catch { return .failure(error) }
        case .volume(let volume): target.setVolume(volume)
        case .mute: target.setMuted(true)
        case .unmute: target.setMuted(false)
        case .screen(let on): target.setScreenPower(on: on)
        case .showText(let text, let seconds):
            do throws(ControlError) { try target.showText(text, seconds: seconds) } catch { return .failure(error) }
        case .overlay(let name, let visible):
            do throws(ControlError) { try target.setOverlay(name, visible: visible) } catch { return .failure(error) }
        case .captions(let choice): target.setCaptions(choice)
        case .status: return .success(.status(status))
        case .get(let property): return .success(.value(target.value(of: property)))
        case .observe, .unobserve:
            return .failure(ControlError("\(command.name): events are for control socket connections ([controls.socket]); stdin has [log] status_interval"))
        case .reload: return reload().map { .done($0) }
        case .quit: return .success(.done("quitting"))
        }
        return .success(.done(nil))
    }
}

/// What a command that worked answers with.
public enum ControlResult: Sendable, Equatable {
    /// Applied; with a note for the reader when there is something to say.
    case done(String?)
    case status(PlaybackStatus)
    /// A property's value (`get`).
    case value(JSONValue)
}

/// The answer to one request, written as one line in the channel's format.
public struct ControlReply: Sendable, Equatable {
    public let id: JSONValue?
    public let outcome: Result<ControlResult, ControlError>

    public init(id: JSONValue?, outcome: Result<ControlResult, ControlError>) {
        self.id = id
        self.outcome = outcome
    }

    /// The reply line, without its line break. Text replies show control
    /// characters (an echoed bad command may hold some) as U+FFFD, so a
    /// reply is always exactly one line.
    public func line(_ format: CommandFormat) -> String {
        switch (format, outcome) {
        case (.text, .success(.done(nil))): "ok"
        case (.text, .success(.done(let note?))): Self.oneLine("ok \(note)")
        case (.text, .success(.status(let status))): Self.oneLine("ok \(status.text)")
        case (.text, .success(.value(let value))): Self.oneLine("ok \(value.jsonText)")
        case (.text, .failure(let error)): Self.oneLine("error: \(error.message)")
        case (.json, .success(let result)):
            "{\"id\":\((id ?? .null).jsonText),\"result\":\(Self.json(result).jsonText)}"
        case (.json, .failure(let error)):
            "{\"id\":\((id ?? .null).jsonText),\"error\":\(JSONString.quoted(error.message))}"
        }
    }

    private static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\u{FFFD}" : $0 }))
    }

    private static func json(_ result: ControlResult) -> JSONValue {
        switch result {
        case .done(nil): .string("ok")
        case .done(let note?): .string(note)
        case .status(let status): status.json
        case .value(let value): value
        }
    }
}

