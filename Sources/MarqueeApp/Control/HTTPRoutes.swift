import FoundationEssentials
import Marquee
import MarqueeConfig
import MarqueeControl
import MarqueeHTTP

/// The HTTP control API (`[controls.http]`): each route, its method, and
/// a 4xx with a one-line reason for anything else. See docs/control.md.
struct HTTPRoutes: HTTPHandler {
    let controls: PlayControls
    /// The upload folder, or why there is none (HTTPRoutes+Media.swift).
    let media: Result<MediaFolder, ControlError>

    static let routes: [String: [String]] = [
        "/": ["GET"], "/status": ["GET"], "/command": ["POST"], "/events": ["GET"],
        "/screenshot.png": ["GET"], "/playlist": ["GET", "PUT"], "/plays": ["GET"],
        "/schedule": ["GET", "PUT"], "/schedule.toml": ["GET"],
    ]

    func respond(to request: HTTPRequest) -> HTTPResponse {
        if let route = MediaRoute(request.path) {
            guard route.methods.contains(request.method) else { return Self.wrongMethod(request, route.methods) }
            return respond(to: request, at: route)
        }
        guard let methods = Self.routes[request.path] else { return .text(404, "no such route: \(request.path.prefix(200)); see GET /") }
        guard methods.contains(request.method) else { return Self.wrongMethod(request, methods) }
        switch (request.method, request.path) {
        case (_, "/"): return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: .bytes(Array(ManagementPage.html.utf8)))
        case (_, "/status"): return .json(200, controls.statusReport().jsonText)
        case (_, "/command"): return command(request.body)
        case (_, "/events"): return events(request.query)
        case (_, "/screenshot.png"): return screenshot(request.query)
        case ("GET", "/playlist") where request.query["entries"] != nil:
            return .json(200, PlaylistStore.json(controls.state.withLock { $0.applied.playback.playlist }).jsonText)
        case ("GET", "/playlist"): return .json(200, controls.target.value(of: .playlist).jsonText)
        case (_, "/plays"): return plays(request.query)
        case ("GET", "/schedule"): return scheduleAhead()
        case (_, "/schedule.toml"):
            let text = controls.state.withLock { $0.applied.scheduleTOMLText }
            return HTTPResponse(status: 200, contentType: "application/toml; charset=utf-8", body: .bytes(Array(text.utf8)))
        case (_, "/schedule"): return schedule(request.body)
        default: return playlist(request.body)
        }
    }

    private static func wrongMethod(_ request: HTTPRequest, _ methods: [String]) -> HTTPResponse {
        var response = HTTPResponse.text(405, "\(request.path.prefix(200)) takes \(methods.joined(separator: " or ")), not \(request.method.prefix(20))")
        response.headers.append(("Allow", methods.joined(separator: ", ")))
        return response
    }

    /// The body is one command: JSON as on the socket (`{"command": "seek",
    /// "args": ["+5"], "id": 1}`), or a text line (`seek +5`).
    private func command(_ body: [UInt8]) -> HTTPResponse {
        guard let text = String(validating: body, as: UTF8.self) else { return .text(400, "the command is not UTF-8") }
        let line = text.trimmingWhitespace
        let format: CommandFormat = line.hasPrefix("{") ? .json : .text
        // A JSON body may be pretty-printed: one line for the parser.
        let single = format == .json ? line.split(whereSeparator: \.isNewline).joined(separator: " ") : line
        guard !single.contains(where: \.isNewline) else { return .text(400, "one command a request") }
        let request: ControlRequest
        do throws(ControlRequest.Failure) {
            guard let parsed = try ControlRequest.parse(single, format: format) else { return .text(400, "no command in the body") }
            request = parsed
        } catch {
            return .json(400, ControlReply(id: error.id, outcome: .failure(error.error)).line(.json))
        }
        if case .observe = request.command { return .text(400, "observe: events over HTTP are GET /events") }
        if case .unobserve = request.command { return .text(400, "unobserve: close the GET /events stream instead") }
        guard let executor = controls.executor.withLock({ $0 }) else { return .text(503, "the player is not ready for commands yet") }
        var reply: ControlReply?
        executor.handle(request) { reply = $0 }
        guard let reply else { return .text(500, "the command gave no reply") }
        if case .failure = reply.outcome { return .json(409, reply.line(.json)) }
        return .json(200, reply.line(.json))
    }

    /// Server-sent events: every event the socket can observe, and
    /// `?status=SECONDS` for status events (0.1 to 86400).
    private func events(_ query: [String: String]) -> HTTPResponse {
        var interval: Double?
        if let text = query["status"] {
            guard let seconds = Double(text), seconds.isFinite,
                  seconds >= EventSubscription.shortestStatusInterval, seconds <= 86_400 else {
                return .text(400, "status=\(text.prefix(20)): give seconds from \(EventSubscription.shortestStatusInterval) to 86400")
            }
            interval = seconds
        }
        return .events(controls.openEventFeed(statusInterval: interval))
    }

    private func screenshot(_ query: [String: String]) -> HTTPResponse {
        var width: Int?
        if let text = query["width"] {
            let widths = PlayControls.screenshotWidths
            guard let value = Int(text), widths.contains(value) else {
                return .text(400, "width=\(text.prefix(20)): give pixels from \(widths.lowerBound) to \(widths.upperBound)")
            }
            width = value
        }
        switch controls.screenshotPNG(width: width, display: query["display"]) {
        case .success(let png): return HTTPResponse(status: 200, contentType: "image/png", body: .bytes(png))
        case .failure(let refusal): return .text(refusal.status, refusal.message)
        }
    }

    /// The play log's lines whose `end` is at or after `?since=RFC3339`
    /// (all without it), as a JSON array, read from the current file (not
    /// the files logrotate has moved away).
    private func plays(_ query: [String: String]) -> HTTPResponse {
        var since: WallTime?
        if let text = query["since"] {
            guard let time = WallTime(rfc3339: text) else {
                return .text(400, "since=\(text.prefix(40)): give an RFC 3339 time, e.g. 2026-12-04T18:03:07.412+01:00")
            }
            since = time
        }
        guard let recorder = controls.recorder else { return .text(409, "no play log: set [log] plays (or --play-log)") }
        do throws(PlayLogError) {
            let records = try PlayLogFile.records(at: recorder.file.path, endingSince: since)
            return .json(200, "[" + records.map(\.line).joined(separator: ",") + "]")
        } catch {
            return .text(500, "\(error)")
        }
    }

    private func playlist(_ body: [UInt8]) -> HTTPResponse {
        let entries: [PlaylistEntry]
        do throws(ControlError) {
            entries = try PlaylistStore.entries(from: body)
        } catch {
            return .text(400, error.message)
        }
        switch controls.sendPlaylist(entries) {
        case .success(let summary): return .json(200, JSONValue.object(["result": .string(summary)]).jsonText)
        case .failure(.entry(let error)): return .text(400, error.message)
        case .failure(.noStore(let error)): return .text(409, error.message)
        case .failure(.store(let error)): return .text(500, error.message)
        }
    }

    /// The next 24 hours of the schedule followed, as `marquee schedule --json` gives them.
    private func scheduleAhead() -> HTTPResponse {
        guard let segments = controls.scheduleAhead() else { return .text(404, "no schedule is followed (no [[schedule]] entries)") }
        return .json(200, ScheduleJSON.text(segments))
    }

    /// The body is a schedule as TOML (`[[schedule]]`, `[playlists.NAME]`,
    /// `[schedule_options]`): every problem at its line:column in a 400.
    private func schedule(_ body: [UInt8]) -> HTTPResponse {
        guard let text = String(validating: body, as: UTF8.self) else { return .text(400, "the schedule is not UTF-8") }
        switch controls.sendSchedule(text) {
        case .success(let summary): return .json(200, JSONValue.object(["result": .string(summary)]).jsonText)
        case .failure(.invalid(let problems)): return .text(400, problems.joined(separator: "\n"))
        case .failure(.entry(let error)): return .text(400, error.message)
        case .failure(.noStore(let error)): return .text(409, error.message)
        case .failure(.store(let error)): return .text(500, error.message)
        }
    }
}
