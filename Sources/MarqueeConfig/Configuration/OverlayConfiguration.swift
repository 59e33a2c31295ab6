import MarqueeCore

/// One `[[overlay]]` table: something drawn over the video (a logo, a
/// text, the time, a ticker) on the display, above its layers.
public struct OverlayConfiguration: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case image, text, clock, ticker
    }

    /// Where an overlay without a `rect` sits: a corner, an edge's middle or the centre.
    public enum Anchor: String, Sendable, CaseIterable {
        case topLeft = "top-left", top, topRight = "top-right", left, center, right
        case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

        /// The keypad digit ASS aligns text by (7 top-left ... 3 bottom-right).
        public var keypad: Int {
            switch self {
            case .topLeft: 7
            case .top: 8
            case .topRight: 9
            case .left: 4
            case .center: 5
            case .right: 6
            case .bottomLeft: 1
            case .bottom: 2
            case .bottomRight: 3
            }
        }

        /// Where a `size` overlay starts, `margin` pixels in from the edges it is anchored to.
        public func rect(size: PixelSize, margin: Int) -> LayerRect {
            func along(_ side: Int, _ length: Int) -> LayerRect.Length {
                switch side {
                case 0: .pixels(margin)
                case 1: .anchored(percent: 50, pixels: -length / 2)
                default: .anchored(percent: 100, pixels: -(margin + length))
                }
            }
            let column = (keypad - 1) % 3, row = 2 - (keypad - 1) / 3
            return LayerRect(x: along(column, size.width), y: along(row, size.height), width: .pixels(size.width), height: .pixels(size.height))
        }
    }

    /// For status, commands and messages: `name`, else "overlay N" (N from 1, in file order).
    public var name: String
    public var kind = Kind.text
    /// Where it is; nil: by `anchor` at its own size (a ticker: the whole width at the bottom).
    public var rect: LayerRect?
    public var anchor = Anchor.bottomRight
    /// Pixels between an anchored overlay and the edges.
    public var margin = 24
    /// Above the layers (z of 1000 and up, in the file's order) unless said.
    public var z: Int
    public var opacity = 1.0
    /// `image`: the picture, relative to the file's folder.
    public var path = ""
    /// `text` and `ticker`: what it says.
    public var text = ""
    /// `clock`: strftime(3) in the local zone.
    public var format = "%H:%M"
    /// `ticker`: a file read for its text, and read again when it changes.
    public var file = ""
    /// `ticker`: pixels a second.
    public var speed = 120.0
    public var font = "DejaVu Sans"
    /// Pixels.
    public var size = 48.0
    public var color = RGBColor(red: 255, green: 255, blue: 255)
    /// Pixels of black border around each glyph.
    public var outline = 2.0
    /// A box behind the text; nil for none.
    public var box: RGBColor?
    /// A connector name; nil: the display of the main layer.
    public var display: String?
    /// A `[[layer]]`'s name: `rect` and `anchor` are then inside that
    /// layer's rectangle, on its display.
    public var layer: String?
    /// Shown only while this item plays (a playlist entry's file name, or
    /// its path as written), `from` to `until` seconds of its own time:
    /// AVSynchronizedLayer's role. nil: always.
    public var item: String?
    public var from = 0.0
    /// nil: to the item's end.
    public var until: Double?
    /// Where the table starts, for messages about it at run time.
    public var location: SourceLocation?

    init(index: Int) {
        name = "overlay \(index + 1)"
        z = 1000 + index
    }

    /// Where a table was in the file is not what it says.
    public static func == (a: OverlayConfiguration, b: OverlayConfiguration) -> Bool {
        a.name == b.name && a.kind == b.kind && a.rect == b.rect && a.anchor == b.anchor && a.margin == b.margin && a.z == b.z
            && a.opacity == b.opacity && a.path == b.path && a.text == b.text && a.format == b.format && a.file == b.file
            && a.speed == b.speed && a.font == b.font && a.size == b.size && a.color == b.color && a.outline == b.outline
            && a.box == b.box && a.display == b.display && a.item == b.item && a.from == b.from && a.until == b.until
            && a.layer == b.layer
    }
}

extension MarqueeConfiguration {
    /// `[[overlay]]` tables: each needs what its kind draws.
    mutating func readOverlays(_ readers: [TableReader]) {
        overlays = readers.enumerated().map { index, reader in
            var overlay = OverlayConfiguration(index: index)
            overlay.location = reader.location
            reader.read(&overlay.name, "name")
            if reader.table["kind"] == nil {
                reader.diagnostics.error("\(reader.name): says no kind (one of \(OverlayConfiguration.Kind.allCases.map(\.rawValue).joined(separator: ", ")))",
                                         at: reader.location)
            }
            reader.read(&overlay.kind, "kind")
            if let value = reader.value("rect") { overlay.rect = Self.readRect(value, reader) }
            reader.read(&overlay.anchor, "anchor")
            reader.read(&overlay.margin, "margin", in: 0...4096)
            var z = overlay.z
            reader.read(&z, "z", in: -1000...10000)
            overlay.z = z
            reader.read(&overlay.opacity, "opacity", in: 0...1)
            reader.read(&overlay.path, "path")
            reader.read(&overlay.text, "text")
            reader.read(&overlay.format, "format")
            reader.read(&overlay.file, "file")
            reader.read(&overlay.speed, "speed", in: 1...10000, unit: " pixels a second")
            reader.read(&overlay.font, "font")
            reader.read(&overlay.size, "size", in: 4...1000, unit: " pixels")
            reader.read(&overlay.color, "color", described: "a colour like \"#RRGGBB\"", parse: RGBColor.init)
            reader.read(&overlay.outline, "outline", in: 0...100, unit: " pixels")
            var box = ""
            reader.read(&box, "box")
            if let value = reader.table["box"], !box.isEmpty {
                if let colour = RGBColor(box) { overlay.box = colour } else {
                    reader.error("box", "expected a colour like \"#RRGGBB\" or \"\" for none, found '\(box)'", at: value.location)
                }
            }
            var connector = ""
            reader.read(&connector, "display")
            overlay.display = connector.isEmpty ? nil : connector
            readLayer(&overlay, reader)
            readItemWindow(&overlay, reader)
            let needs: (key: String, value: String)? = switch overlay.kind {
            case .image: ("path", overlay.path)
            case .text: ("text", overlay.text)
            case .clock: ("format", overlay.format)
            case .ticker: overlay.file.isEmpty ? ("text", overlay.text) : nil
            }
            if let needs, needs.value.isEmpty {
                let location = reader.table[needs.key]?.location ?? reader.location
                reader.diagnostics.error("\(reader.name): a\(overlay.kind == .image ? "n" : "") \(overlay.kind.rawValue) overlay needs \(needs.key)\(overlay.kind == .ticker ? " or file" : "")",
                                         at: location)
            }
            reader.finish()
            return overlay
        }
    }

    /// `layer`: a `[[layer]]` of the file (read before the overlays), in place of `display`.
    private func readLayer(_ overlay: inout OverlayConfiguration, _ reader: TableReader) {
        var name = ""
        reader.read(&name, "layer")
        guard !name.isEmpty, let value = reader.table["layer"] else { return }
        guard layers.contains(where: { $0.name == name }) else {
            let names = layers.map(\.name)
            reader.error("layer", "no [[layer]] is called '\(name)'" + (names.isEmpty ? " (there are none)" : " (have: \(names.joined(separator: ", ")))"),
                         at: value.location)
            return
        }
        if overlay.display != nil, let display = reader.table["display"] {
            reader.error("display", "give layer or display: the layer's display is where it goes", at: display.location)
        }
        overlay.layer = name
    }

    /// `item`, `from` and `until`: a window of one item's time; from and until need an item, and until comes after from.
    private func readItemWindow(_ overlay: inout OverlayConfiguration, _ reader: TableReader) {
        var item = "", until = -1.0
        reader.read(&item, "item")
        reader.read(&overlay.from, "from", in: 0...86_400 * 365, unit: " s")
        reader.read(&until, "until", in: 0...86_400 * 365, unit: " s")
        overlay.item = item.isEmpty ? nil : item
        overlay.until = until < 0 ? nil : until
        if overlay.item == nil, let key = ["from", "until"].first(where: { reader.table[$0] != nil }) {
            reader.error(key, "needs item = \"FILE\": the item whose time it counts", at: reader.table[key]!.location)
        }
        if let until = overlay.until, until <= overlay.from, let value = reader.table["until"] {
            reader.error("until", "\(until) s is not after from (\(overlay.from) s)", at: value.location)
        }
    }
}
