import MarqueeCore

extension MarqueeConfiguration {
    /// `[playlists.NAME]` tables, each with `items` and `[playback]`'s
    /// `loop`, `shuffle` and `transition` where it sets them.
    mutating func readPlaylists(_ reader: TableReader) {
        playlists = reader.table.entries.compactMap { entry in
            guard let table = reader.table(entry.key) else { return nil }
            var playlist = NamedPlaylist(name: entry.key, items: [])
            table.read(&playlist.items, "items")
            var loop = playback.loop, shuffle = playback.shuffle, transition = playback.transition
            table.read(&loop, "loop")
            table.read(&shuffle, "shuffle")
            table.read(&transition, "transition")
            table.finish()
            playlist.loop = table.table["loop"].map { _ in loop }
            playlist.shuffle = table.table["shuffle"].map { _ in shuffle }
            playlist.transition = table.table["transition"].map { _ in transition }
            if table.table["items"] == nil {
                reader.diagnostics.error("\(table.name): missing 'items' (the playlist's files, folders, globs and URLs)", at: table.location)
            }
            if playlist.transition == .fade, playback.transitionMs == 0, let given = table.table["transition"] {
                table.error("transition", "\"fade\" has no effect while [playback] transition_ms is 0; give it a duration or use \"cut\"",
                            at: given.location)
            }
            return playlist
        }
        reader.finish()
    }

    /// `[[schedule]]` entries; then a warning for each that an earlier one
    /// covers, so it can never decide.
    mutating func readSchedule(_ readers: [TableReader]) {
        let names = playlists.map(\.name)
        let read = readers.compactMap { reader in ScheduleEntry.read(reader, playlists: names).map { (reader, $0) } }
        schedule = read.map(\.1)
        for (later, earlier) in Schedule.shadowedEntries(schedule) {
            let (reader, location) = (read[later].0, read[earlier].1.location.map { " at \($0)" } ?? "")
            reader.diagnostics.warning("\(reader.name) can never decide: \(read[earlier].0.name)\(location) holds every window it has",
                                       at: reader.location)
        }
    }
}

extension ScheduleEntry {
    /// One `[[schedule]]` entry; nil (with errors recorded) when it says
    /// neither what to play nor that the screen is off.
    static func read(_ reader: TableReader, playlists: [String]) -> ScheduleEntry? {
        let action = readAction(reader, playlists: playlists)
        var entry = ScheduleEntry(action ?? .screenOff)
        entry.location = reader.location
        entry.days = readDays(reader)
        entry.dates = readDates(reader)
        entry.times = readTimes(reader)
        reader.finish()
        return action.map { _ in entry }
    }

    /// Exactly one of `playlist = "NAME"` (a `[playlists.NAME]`) and `screen = "off"`.
    private static func readAction(_ reader: TableReader, playlists: [String]) -> Action? {
        var name = "", screen = ""
        reader.read(&name, "playlist")
        reader.read(&screen, "screen")
        switch (reader.table["playlist"], reader.table["screen"]) {
        case (nil, nil):
            reader.diagnostics.error("\(reader.name): says neither playlist = \"NAME\" nor screen = \"off\"", at: reader.location)
        case (_?, let given?):
            reader.error("screen", "give playlist or screen, not both (the screen is on while a playlist plays)", at: given.location)
        case (let given?, nil):
            guard given.string != nil else { return nil }
            guard playlists.contains(name) else {
                reader.error("playlist", "no [playlists.\(name)] in the file\(unknownNameHint(name, playlists))", at: given.location)
                return nil
            }
            return .playlist(name)
        case (nil, let given?):
            guard given.string != nil else { return nil }
            guard screen == "off" else {
                reader.error("screen", "'\(screen)' is not \"off\" (outside its screen-off windows the screen is on)", at: given.location)
                return nil
            }
            return .screenOff
        }
        return nil
    }

    /// `days = ["mon", ...]`; nil when absent (every day).
    private static func readDays(_ reader: TableReader) -> Set<Weekday>? {
        let names = Weekday.allCases.map(\.rawValue)
        return readArray(reader, "days", described: "day names (\(names.joined(separator: ", ")))") { text in
            if let day = Weekday(rawValue: text) { return .success(day) }
            // "monday", "Mon": the day its first three letters name.
            let hint = Weekday(rawValue: String(text.lowercased().prefix(3))).map { " (did you mean '\($0.rawValue)'?)" }
                ?? Suggestion.hint(for: text, in: names)
            return .failure("'\(text)' is not a day: \(names.joined(separator: ", "))\(hint)")
        }.map(Set.init)
    }

    /// `dates = ["YYYY-MM-DD", "YYYY-MM-DD..YYYY-MM-DD"]`; nil when absent (any date).
    private static func readDates(_ reader: TableReader) -> [DateRange]? {
        readArray(reader, "dates", described: "dates (\"YYYY-MM-DD\" or \"YYYY-MM-DD..YYYY-MM-DD\")") { text in
            let ends = text.split(separator: "..", omittingEmptySubsequences: false)
            guard ends.count <= 2 else { return .failure("'\(text)' is not a date or a range of dates \"YYYY-MM-DD..YYYY-MM-DD\"") }
            var dates: [CalendarDate] = []
            for end in ends {
                guard let date = CalendarDate(end) else {
                    let shaped = end.count == 10 && end.enumerated().allSatisfy { [4, 7].contains($0) ? $1 == "-" : ("0"..."9").contains($1) }
                    return .failure(shaped ? "there is no day \(end)" : "'\(end)' is not a date \"YYYY-MM-DD\"")
                }
                dates.append(date)
            }
            guard let range = DateRange(first: dates[0], last: dates[dates.count - 1]) else {
                return .failure("'\(text)' ends before it starts")
            }
            return .success(range)
        }
    }

    /// `from` and `until`, both or neither; nil when neither (the whole day).
    private static func readTimes(_ reader: TableReader) -> DailyTimes? {
        let times = ["from", "until"].map { key -> TimeOfDay? in
            guard let value = reader.value(key) else { return nil }
            guard let text = value.string else {
                reader.typeError(key, expected: "a local time of day \"HH:MM\"", found: value)
                return nil
            }
            guard let time = TimeOfDay(text) else {
                reader.error(key, "'\(text)' is not a local time of day \"HH:MM\", 00:00 to 23:59", at: value.location)
                return nil
            }
            return time
        }
        switch (times[0], times[1], reader.table["from"], reader.table["until"]) {
        case (let from?, let until?, _, _):
            return DailyTimes(from: from, until: until)
        case (_, _, let given?, nil):
            reader.error("from", "needs until (both or neither: without them the entry takes whole days)", at: given.location)
        case (_, _, nil, let given?):
            reader.error("until", "needs from (both or neither: without them the entry takes whole days)", at: given.location)
        default:
            break
        }
        return nil
    }

    /// A non-empty array of strings, each turned into a value by `parse` or
    /// an error at that element; nil when the key is absent.
    private static func readArray<Element>(_ reader: TableReader, _ key: String, described: String,
                                           parse: (String) -> Result<Element, ScheduleValueError>) -> [Element]? {
        guard let value = reader.value(key) else { return nil }
        guard let elements = value.array else {
            reader.typeError(key, expected: "an array of \(described)", found: value)
            return nil
        }
        guard !elements.isEmpty else {
            reader.error(key, "is empty, so the entry would never apply; leave \(key) out to mean any", at: value.location)
            return nil
        }
        return elements.enumerated().compactMap { index, element in
            guard let text = element.string else {
                reader.typeError("\(key)[\(index)]", expected: "a string", found: element)
                return nil
            }
            switch parse(text) {
            case .success(let parsed): return parsed
            case .failure(let problem):
                reader.error("\(key)[\(index)]", problem.message, at: element.location)
                return nil
            }
        }
    }
}

/// Why a string in a schedule entry is not what its key takes.
struct ScheduleValueError: Error, ExpressibleByStringInterpolation {
    let message: String

    init(stringLiteral message: String) {
        self.message = message
    }

    init(stringInterpolation: DefaultStringInterpolation) {
        message = String(stringInterpolation: stringInterpolation)
    }
}

extension ScheduleOptions {
    mutating func read(_ reader: TableReader, playlists: [String]) {
        reader.read(&switchAt, "switch")
        reader.read(&trustClock, "trust_clock")
        var name = ""
        reader.read(&name, "before_clock_set")
        reader.finish()
        guard !name.isEmpty, let given = reader.table["before_clock_set"] else { return }
        guard playlists.contains(name) else {
            return reader.error("before_clock_set", "no [playlists.\(name)] in the file\(unknownNameHint(name, playlists))",
                                at: given.location)
        }
        beforeClockSet = name
    }
}

/// " (did you mean 'x'?)", or the names there are when none is close.
private func unknownNameHint(_ name: String, _ playlists: [String]) -> String {
    let hint = Suggestion.hint(for: name, in: playlists)
    guard hint.isEmpty else { return hint }
    return playlists.isEmpty ? "" : " (there are \(playlists.map { "'\($0)'" }.joined(separator: ", ")))"
}
