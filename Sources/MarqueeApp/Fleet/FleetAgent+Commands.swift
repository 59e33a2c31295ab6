import FoundationEssentials
import MarqueeControl
import MarqueeFleet

/// Commands from the fleet: the socket's language (a JSON object with
/// `command`, `args`, `id`, or a text line), run by the one
/// `CommandExecutor`, the reply on `marquee/ID/reply` with the request's
/// id; and `screenshot [WIDTH]`, whose PNG goes to `marquee/ID/screenshot`.
extension FleetAgent {
    func command(_ payload: [UInt8]) {
        guard let text = String(validating: payload, as: UTF8.self) else {
            reply(ControlReply(id: nil, outcome: .failure(ControlError("the command is not UTF-8"))).line(.json))
            return
        }
        let line = text.trimmingWhitespace.split(whereSeparator: \.isNewline).joined(separator: " ")
        let format: CommandFormat = line.hasPrefix("{") ? .json : .text
        if let (id, width) = Self.screenshotRequest(line, format: format) {
            guard id.map({ firstTime($0.jsonText) }) ?? true else { return }
            switch width {
            case .success(let width): screenshot(id: id, width: width)
            case .failure(let error): reply(ControlReply(id: id, outcome: .failure(error)).line(.json))
            }
            return
        }
        let request: ControlRequest
        do throws(ControlRequest.Failure) {
            guard let parsed = try ControlRequest.parse(line, format: format) else { return }
            request = parsed
        } catch {
            reply(ControlReply(id: error.id, outcome: .failure(error.error)).line(.json))
            return
        }
        // A QoS 1 message can come twice: a command with an id acts once.
        if let id = request.id, id != .null, !firstTime(id.jsonText) { return }
        switch request.command {
        case .observe, .unobserve:
            reply(ControlReply(id: request.id, outcome: .failure(ControlError("events are on \(topics.events): subscribe to it"))).line(.json))
            return
        default: break
        }
        guard let executor = controls.executor.withLock({ $0 }) else {
            reply(ControlReply(id: request.id, outcome: .failure(ControlError("the player is not ready for commands yet"))).line(.json))
            return
        }
        executor.handle(request) { reply($0.line(.json)) }
    }

    /// `screenshot [WIDTH]` as text or JSON: its id and width (or why the
    /// width is wrong); nil for any other command.
    static func screenshotRequest(_ line: String, format: CommandFormat) -> (id: JSONValue?, width: Result<Int?, ControlError>)? {
        var id: JSONValue?, arguments: [String]
        switch format {
        case .text:
            let words = line.split(separator: " ").map(String.init)
            guard words.first == "screenshot" else { return nil }
            arguments = Array(words.dropFirst())
        case .json:
            guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8)),
                  case .string("screenshot")? = object["command"] else { return nil }
            id = object["id"]
            arguments = []
            if case .array(let elements)? = object["args"] {
                arguments = elements.compactMap {
                    switch $0 {
                    case .string(let text): text
                    case .integer(let number): String(number)
                    default: nil
                    }
                }
            }
        }
        guard arguments.count <= 1 else { return (id, .failure(ControlError("screenshot takes one argument, the width in pixels"))) }
        guard let text = arguments.first else { return (id, .success(nil)) }
        let widths = PlayControls.screenshotWidths
        guard let width = Int(text), widths.contains(width) else {
            return (id, .failure(ControlError("screenshot \(text.prefix(20)): give a width from \(widths.lowerBound) to \(widths.upperBound) pixels")))
        }
        return (id, .success(width))
    }

    private func screenshot(id: JSONValue?, width: Int?) {
        switch controls.screenshotPNG(width: width, display: nil) {
        case .success(let png):
            do throws(MQTTError) {
                try client.publish(MQTTMessage(topic: topics.screenshot, payload: png, qos: 1))
                reply(ControlReply(id: id, outcome: .success(.value(.object([
                    "topic": .string(topics.screenshot), "bytes": .integer(Int64(png.count)),
                ])))).line(.json))
            } catch {
                reply(ControlReply(id: id, outcome: .failure(ControlError("screenshot: \(error)"))).line(.json))
            }
        case .failure(let refusal):
            reply(ControlReply(id: id, outcome: .failure(ControlError("screenshot: \(refusal.message)"))).line(.json))
        }
    }
}
