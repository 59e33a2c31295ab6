import MarqueeCore

/// One `[[layer]]` table: a zone of a display that plays its own content.
public struct LayerConfiguration: Sendable, Equatable {
    /// For status and messages: `name`, else "layer N" (N from 1, in file order).
    public var name: String
    public var rect = LayerRect.fullScreen
    /// Stacking order (higher is nearer); default: the file's order.
    public var z: Int
    public var gravity: VideoGravity
    /// Around the picture inside the rectangle, and before the first picture.
    public var background: RGBColor
    public var opacity = 1.0
    /// A connector name ("HDMI-A-2"); nil: the first display.
    public var display: String?
    public var content = Content.items([])
    /// This layer's sound plays; nil: not said (the first layer plays where none says).
    public var audio: Bool?
    /// Where the table starts, for messages about it at run time.
    public var location: SourceLocation?

    public enum Content: Sendable, Equatable {
        /// A `[playlists.NAME]`, with its own loop, shuffle and transition.
        case playlist(String)
        /// Entries as `[playback] playlist` takes them; looped.
        case items([PlaylistEntry])
    }

    /// The one layer of a file without `[[layer]]`: the whole display,
    /// playing `[playback] playlist` (what the show's player plays).
    public static func wholeScreen(_ display: MarqueeConfiguration.Display) -> LayerConfiguration {
        var layer = LayerConfiguration(index: 0, display: display)
        layer.name = "video"
        return layer
    }

    init(index: Int, display: MarqueeConfiguration.Display) {
        name = "layer \(index + 1)"
        z = index
        gravity = display.gravity
        background = display.background
    }
}

extension MarqueeConfiguration {
    /// `[[layer]]` tables; names of playlists checked against `[playlists.*]`.
    mutating func readLayers(_ readers: [TableReader]) {
        let names = playlists.map(\.name)
        layers = readers.enumerated().map { index, reader in
            var layer = LayerConfiguration(index: index, display: display)
            layer.location = reader.location
            reader.read(&layer.name, "name")
            if let value = reader.value("rect") { layer.rect = Self.readRect(value, reader) ?? layer.rect }
            var z = layer.z
            reader.read(&z, "z", in: -1000...1000)
            layer.z = z
            reader.read(&layer.gravity, "gravity")
            reader.read(&layer.background, "background", described: "a colour like \"#RRGGBB\"", parse: RGBColor.init)
            reader.read(&layer.opacity, "opacity", in: 0...1)
            var connector = ""
            reader.read(&connector, "display")
            layer.display = connector.isEmpty ? nil : connector
            var audio = false
            reader.read(&audio, "audio")
            layer.audio = reader.table["audio"].map { _ in audio }
            var playlist = "", items: [PlaylistEntry] = []
            reader.read(&playlist, "playlist")
            reader.read(&items, "items")
            switch (reader.table["playlist"], reader.table["items"]) {
            case (nil, nil):
                reader.diagnostics.error("\(reader.name): says neither playlist = \"NAME\" nor items = [...]", at: reader.location)
            case (_?, let given?):
                reader.error("items", "give playlist or items, not both", at: given.location)
            case (let given?, nil):
                if given.string != nil, !names.contains(playlist) {
                    let hint = Suggestion.hint(for: playlist, in: names)
                    reader.error("playlist", "no [playlists.\(playlist)] in the file\(hint)", at: given.location)
                }
                layer.content = .playlist(playlist)
            case (nil, _?):
                layer.content = .items(items)
            }
            reader.finish()
            return layer
        }
        let audible = layers.indices.filter { layers[$0].audio == true }
        for extra in audible.dropFirst() {
            let location = readers[extra].table["audio"]?.location ?? readers[extra].location
            readers[extra].error("audio", "only one layer's sound plays; \(layers[audible[0]].name) already has audio = true", at: location)
        }
    }

    /// `[x, y, w, h]`: integers (pixels) or strings like "50%" (of the
    /// display's width for x and w, height for y and h). Nil, with an error
    /// at the value, for anything else, a size of zero or less, or a place
    /// that is off the display whatever its size.
    static func readRect(_ value: TOMLValue, _ reader: TableReader) -> LayerRect? {
        guard let parts = value.array, parts.count == 4 else {
            reader.typeError("rect", expected: "[x, y, width, height] (pixels, or strings like \"50%\")", found: value)
            return nil
        }
        var lengths: [LayerRect.Length] = []
        for (index, part) in parts.enumerated() {
            let field = ["x", "y", "width", "height"][index]
            if let pixels = part.integer, let count = Int(exactly: pixels), abs(count) <= 32768 {
                lengths.append(.pixels(count))
            } else if let text = part.string, text.hasSuffix("%"), let share = Double(text.dropLast()), share.isFinite {
                lengths.append(.percent(share))
            } else if let pixels = part.integer {
                reader.error("rect", "\(field) \(pixels) is out of range -32768...32768", at: part.location)
                return nil
            } else {
                reader.error("rect", "\(field) must be a number of pixels or a percentage like \"25%\", found \(part.string.map { "'\($0)'" } ?? reader.article(part.typeName))",
                             at: part.location)
                return nil
            }
        }
        let rect = LayerRect(x: lengths[0], y: lengths[1], width: lengths[2], height: lengths[3])
        for (index, length) in [rect.width, rect.height].enumerated() {
            let size: Double = switch length {
            case .pixels(let count): Double(count)
            case .percent(let share), .anchored(let share, _): share
            }
            if size <= 0 {
                reader.error("rect", "\(["width", "height"][index]) is \(length): a layer must have a size", at: parts[index + 2].location)
                return nil
            }
        }
        for (index, (start, size)) in [(rect.x, rect.width), (rect.y, rect.height)].enumerated() {
            let edge = ["left", "top"][index]
            if case .percent(let share) = start, share >= 100 {
                reader.error("rect", "its \(edge) edge is at \(start), off the display", at: parts[index].location)
                return nil
            }
            if case .percent(let from) = start, case .percent(let share) = size, from + share <= 0 {
                reader.error("rect", "it ends at or before the display's \(edge) edge", at: parts[index].location)
                return nil
            }
            if case .pixels(let from) = start, case .pixels(let count) = size, from + count <= 0 {
                reader.error("rect", "it ends at or before the display's \(edge) edge", at: parts[index].location)
                return nil
            }
        }
        return rect
    }
}

extension MarqueeConfiguration {
    /// The layer whose player the controls and the schedule drive and whose
    /// sound plays: the one with `audio = true`, else the first; nil
    /// without `[[layer]]`.
    public var mainLayerIndex: Int? {
        layers.isEmpty ? nil : layers.firstIndex { $0.audio == true } ?? 0
    }

    public var mainLayer: LayerConfiguration? { mainLayerIndex.map { layers[$0] } }
}

extension LayerConfiguration {
    /// Where the table stands in the file is not part of the layout: the
    /// same layer written elsewhere (or printed by check-config) is equal.
    public static func == (a: LayerConfiguration, b: LayerConfiguration) -> Bool {
        a.name == b.name && a.rect == b.rect && a.z == b.z && a.gravity == b.gravity && a.background == b.background
            && a.opacity == b.opacity && a.display == b.display && a.content == b.content && a.audio == b.audio
    }
}
