import FoundationEssentials
import MarqueeApp
import MarqueeControl
import MarqueeCore
import MarqueeFleet

extension FleetCommand {
    /// Every screen's retained status: what arrives until the broker has
    /// been quiet for a moment (retained messages come at once), or `timeout`.
    func statuses(_ console: FleetConsole) throws -> [String: [String: JSONValue]] {
        try console.subscribe([FleetTopics.allStatus], timeout: timeout)
        var found: [String: [String: JSONValue]] = [:]
        let end = FleetConsole.deadline(timeout)
        while let message = console.next(before: min(end, FleetConsole.deadline(0.5))) {
            guard let id = FleetTopics.screen(in: message.topic),
                  let status = try? JSONDecoder().decode([String: JSONValue].self, from: Data(message.payload)) else { continue }
            found[id] = status
        }
        return found
    }

    func list(_ console: FleetConsole, json: Bool) throws -> Int32 {
        let found = try statuses(console)
        let ids = found.keys.sorted()
        if json {
            print("[" + ids.map { id in JSONValue.object(found[id]!.merging(["id": .string(id)]) { old, _ in old }).jsonText }
                .joined(separator: ",") + "]")
            return 0
        }
        func text(_ value: JSONValue?) -> String {
            switch value {
            case .string(let text)?: text
            case .integer(let number)?: String(number)
            case .number(let number)?: String(number, places: 0)
            case .bool(let flag)?: String(flag)
            default: "-"
            }
        }
        var rows = [["ID", "STATE", "ITEM", "UPTIME", "GROUPS"]]
        for id in ids {
            let status = found[id]!
            let online = status["online"] != .bool(false)
            let groups: String = if case .array(let names)? = status["groups"] { names.map { text($0) }.joined(separator: ",") } else { "-" }
            rows.append([id, online ? text(status["state"]) : "offline", online ? PathText.lastComponent(text(status["source"])) : "-",
                         online ? text(status["uptime"]) + " s" : "-", groups])
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max()! }
        for row in rows {
            print(row.enumerated().map { $0.offset == 4 ? $0.element : $0.element.padded(to: widths[$0.offset] + 2) }
                .joined())
        }
        return 0
    }

    /// Publishes `message` and prints each reply carrying `id` as it comes;
    /// then, on stderr, who did not answer within the timeout. Exit 1 when
    /// a reply is an error or a screen is silent.
    func exchange(_ console: FleetConsole, target: String, id: String, message: MQTTMessage) throws -> Int32 {
        // Who should answer: the screen, or the group's screens that are online.
        var expected: Set<String> = [target]
        if target.hasPrefix("group/") {
            let group = JSONValue.string(String(target.dropFirst(6)))
            expected = Set(try statuses(console).filter { _, status in
                guard status["online"] != .bool(false), case .array(let groups)? = status["groups"] else { return false }
                return groups.contains(group)
            }.keys)
        }
        try console.subscribe([FleetTopics.allReplies], timeout: timeout)
        let start = MonotonicClock().now()
        try console.publish(message)
        var answered: Set<String> = [], failed = false
        let end = FleetConsole.deadline(timeout)
        while !expected.isSubset(of: answered) || expected.isEmpty, let reply = console.next(before: end) {
            guard let screen = FleetTopics.screen(in: reply.topic),
                  let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(reply.payload)),
                  object["id"] == .string(id), answered.insert(screen).inserted else { continue }
            if case .string(let error)? = object["error"] {
                failed = true
                print("\(screen): error: \(error)")
            } else {
                print("\(screen): \(CtlCommand.text(object["result"] ?? .null))")
            }
        }
        let seconds = (MonotonicClock().now() - start).secondsDouble
        let silent = expected.subtracting(answered).sorted()
        Diagnostics.error("fleet: \(answered.count) answered, \(silent.count) did not within \(String(timeout, places: 1)) s"
                         + (silent.isEmpty ? "" : " (\(silent.joined(separator: ", ")))") + "; the last reply after \(String(seconds, places: 3)) s")
        return failed || !silent.isEmpty || answered.isEmpty ? 1 : 0
    }

    func screenshot(_ console: FleetConsole, id: String, output: String, width: Int?) throws -> Int32 {
        let topics = FleetTopics(id: id)
        try console.subscribe([topics.screenshot, topics.reply], timeout: timeout)
        let request = "fleet-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        let command = JSONValue.object(["command": .string("screenshot"), "args": .array(width.map { [.integer(Int64($0))] } ?? []),
                                        "id": .string(request)])
        try console.publish(MQTTMessage(topic: topics.command, text: command.jsonText, qos: 1))
        let end = FleetConsole.deadline(timeout)
        while let message = console.next(before: end) {
            if message.topic == topics.screenshot {
                try Data(message.payload).write(to: URL(fileURLWithPath: output))
                Diagnostics.error("fleet: \(id): \(message.payload.count) bytes in \(output)")
                return 0
            }
            if let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(message.payload)),
               object["id"] == .string(request), case .string(let error)? = object["error"] {
                Diagnostics.error("fleet: \(id): \(error)")
                return 1
            }
        }
        Diagnostics.error("fleet: \(id): no screenshot within \(String(timeout, places: 1)) s")
        return 1
    }
}
