import MarqueeCore

/// What the control commands need of a player. The `marquee` tool adapts
/// its `QueuePlayer`; tests use a fake, so every command's effect can be
/// checked without media or hardware.
///
/// Implementations must be callable from any thread (commands arrive on
/// the stdin reader's thread and on each GPIO button's thread) and must not
/// block for long: a seek starts and returns, it does not wait for a frame.
public protocol PlaybackTarget: Sendable {
    var status: PlaybackStatus { get }
    func play()
    func pause()
    /// Seconds from the start of the current item, already clamped to it.
    func seek(to seconds: Double)
    /// Plays the playlist item at `index` (0-based) from its start; false
    /// when there is no such item.
    func playItem(at index: Int) -> Bool
    func setLoopMode(_ mode: LoopMode)
    /// In `PlaybackRate.range`, or backwards its negation; also plays.
    /// - Throws: `ControlError` saying why the item cannot play at `rate`.
    func setRate(_ rate: Double) throws(ControlError)
    /// Pauses and shows the frame `count` frames on (back, below zero).
    /// - Throws: `ControlError` saying why the item cannot step so.
    func step(by count: Int) throws(ControlError)
    /// 0...1.
    func setVolume(_ volume: Double)
    func setMuted(_ muted: Bool)
    /// Switches the display off (and pauses) or on (and resumes what the
    /// switch off paused): `Player.setScreenPower(on:)`. The one call for
    /// `screen on|off` and anything else that powers the screen.
    func setScreenPower(on: Bool)
    /// Text over the video for `seconds`, replacing any shown.
    /// - Throws: `ControlError` where the display draws no overlays.
    func showText(_ text: String, seconds: Double) throws(ControlError)
    /// Shows or hides the `[[overlay]]` called `name`.
    /// - Throws: `ControlError` naming the overlays there are.
    func setOverlay(_ name: String, visible: Bool) throws(ControlError)
    /// Captions on, off or in a language first, for the current item at
    /// once and every item after it.
    func setCaptions(_ choice: ControlCommand.CaptionsChoice)
    /// A property by name (`get`); `statusValue(of:)` answers those a
    /// status holds, the target the rest (playlist, stats, display, decoder).
    func value(of property: PlayerProperty) -> JSONValue
}

extension PlaybackTarget {
    /// The properties a `PlaybackStatus` holds; nil for the others.
    public func statusValue(of property: PlayerProperty) -> JSONValue? {
        let status = self.status
        let fields = status.fields
        switch property {
        case .status: return status.json
        case .item:
            guard let index = status.index else { return .null }
            return .object(["index": .integer(Int64(index + 1)), "source": status.source.map(JSONValue.string) ?? .null])
        case .state, .time, .duration, .rate, .volume, .muted, .loop, .screen: return fields[property.rawValue] ?? .null
        case .playlist, .stats, .display, .decoder: return nil
        }
    }
}

/// A snapshot of a player, as `status` replies and status events show it.
public struct PlaybackStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        case playing, paused
        /// Nothing left to play.
        case finished
        case failed
    }

    public var state: State
    /// Position of the current item in the playlist, from 0; nil when none.
    public var index: Int?
    public var count: Int
    public var source: String?
    /// Seconds into the current item.
    public var time: Double
    /// Seconds; nil when unknown (not opened yet, live streams).
    public var duration: Double?
    /// The rate playback runs at when playing (a paused player keeps its rate).
    public var rate: Double
    public var volume: Double
    public var muted: Bool
    public var loop: LoopMode
    /// How the picture on screen is shown (size, pixel aspect, orientation,
    /// colour); in the JSON form only, as it holds spaces.
    public var picture: String?
    /// Why a playing player's time stands still (AVPlayer's
    /// `reasonForWaitingToPlay`: `toMinimizeStalls`, `noItemToPlay`); nil when it moves.
    public var waiting: String?
    /// The current item's buffer, as AVPlayerItem's `isPlaybackBufferEmpty`
    /// and `isPlaybackLikelyToKeepUp` say it; and the stalls so far.
    public var bufferEmpty = false
    public var likelyToKeepUp = true
    public var stalls = 0
    /// False while the display is switched off (`screen off`).
    public var screenOn = true
    /// What a schedule shows and when and to what that next changes; nil without a schedule.
    public var schedule: ScheduleSummary?

    /// A schedule's state in words, as its events give it ("playlist NAME",
    /// "default", "screen off"), with the next change as RFC 3339 in local time.
    public struct ScheduleSummary: Sendable, Equatable {
        public var showing: String
        public var nextChange: String?
        public var next: String?

        public init(showing: String, nextChange: String?, next: String?) {
            self.showing = showing
            self.nextChange = nextChange
            self.next = next
        }
    }

    public init(state: State, index: Int?, count: Int, source: String?, time: Double, duration: Double?,
                rate: Double, volume: Double, muted: Bool, loop: LoopMode, picture: String? = nil) {
        self.picture = picture
        self.state = state
        self.index = index
        self.count = count
        self.source = source
        self.time = time
        self.duration = duration
        self.rate = rate
        self.volume = volume
        self.muted = muted
        self.loop = loop
    }

    /// `state=playing item=1/3 time=12.345 ...`, `source=` last as it may hold spaces.
    public var text: String {
        var fields = ["state=\(state.rawValue)", "item=\(index.map { String($0 + 1) } ?? "-")/\(count)",
                      "time=\(Self.seconds(time))", "duration=\(duration.map(Self.seconds) ?? "-")",
                      "rate=\(ControlCommand.format(rate))", "volume=\(ControlCommand.format(volume))",
                      "muted=\(muted)", "loop=\(loop.rawValue)", "screen=\(screenOn ? "on" : "off")"]
        if let waiting { fields.append("waiting=\(waiting)") }
        if let schedule { fields.append("next_change=\(schedule.nextChange ?? "-")") }
        if let source { fields.append("source=\(source)") }
        return fields.joined(separator: " ")
    }

    /// The JSON object form; `item` counts from 1 like `goto`.
    public var json: JSONValue { .object(fields) }

    /// The JSON object's members, for replies and events that carry them with more.
    public var fields: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "state": .string(state.rawValue), "items": .integer(Int64(count)), "time": .number(Self.rounded(time)),
            "rate": .number(rate), "volume": .number(volume), "muted": .bool(muted), "loop": .string(loop.rawValue),
        ]
        members["item"] = index.map { .integer(Int64($0 + 1)) } ?? .null
        members["duration"] = duration.map { .number(Self.rounded($0)) } ?? .null
        members["source"] = source.map(JSONValue.string) ?? .null
        if let picture { members["picture"] = .string(picture) }
        members["waiting"] = waiting.map(JSONValue.string) ?? .null
        members["bufferEmpty"] = .bool(bufferEmpty)
        members["likelyToKeepUp"] = .bool(likelyToKeepUp)
        members["stalls"] = .integer(Int64(stalls))
        members["screen"] = .string(screenOn ? "on" : "off")
        if let schedule {
            members["schedule"] = .object(["showing": .string(schedule.showing), "nextChange": schedule.nextChange.map(JSONValue.string) ?? .null,
                                           "next": schedule.next.map(JSONValue.string) ?? .null])
        }
        return members
    }

    /// Milliseconds are plenty for a status line.
    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// Seconds with three decimals ("12.346"), without Foundation's formatting.
    private static func seconds(_ value: Double) -> String {
        let millis = Int64((value * 1000).rounded())
        let sign = millis < 0 ? "-" : ""
        let magnitude = abs(millis)
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
