import Marquee
import MarqueeConfig
import MarqueeControl
import MarqueeKMS
import MarqueeOverlays

/// A show's `[[overlay]]` tables made into overlays on its displays: each
/// drawn by the display's own thread over the layers. One that cannot be
/// made (a picture that cannot be read) is one line and left out; a font
/// that is not installed is one line and fontconfig's fallback.
struct ShowOverlays: Sendable {
    struct Overlay: Sendable {
        let name: String
        let kind: OverlayConfiguration.Kind
        /// One per display it is on (a mirrored layout: every display).
        let layers: [DisplayLayer]
        /// `text` overlays, so `show-text` can change one.
        let texts: [TextOverlay]
        /// Those tied to an item's time (`item`), one per display.
        let timed: [ItemTimedOverlay]
    }

    let overlays: [Overlay]
    /// Where `show-text` draws: along the bottom of the main display, over everything.
    private let osd: (text: TextOverlay, layers: [DisplayLayer])?
    private let clock: any HostClock

    /// - Parameters:
    ///   - displays: the displays an overlay goes on, by its `display` key (nil: the main one).
    ///   - layers: a `[[layer]]`'s displays and rect, by its name, for an overlay's `layer` key.
    init(_ tables: [OverlayConfiguration], configPath: String?, log: ControlLog, clock: any HostClock,
         displays: (String?) -> [LayeredDisplay], layers layerPlaces: (String) -> (displays: [LayeredDisplay], rect: LayerRect)?) {
        self.clock = clock
        var fonts: Set<String> = []
        var made: [Overlay] = []
        for table in tables where table.kind != .image {
            guard fonts.insert(table.font).inserted, let note = FontCheck.fallbackNote(for: table.font) else { continue }
            log.warning("\(Self.place(table))\(note)")
        }
        for table in tables {
            do {
                var layers: [DisplayLayer] = [], texts: [TextOverlay] = [], timed: [ItemTimedOverlay] = []
                let layer = table.layer.flatMap(layerPlaces)
                for display in layer?.displays ?? displays(table.display) {
                    var (content, size) = try Self.content(table, configPath: configPath, log: log)
                    if let text = content as? TextOverlay { texts.append(text) }
                    if let item = table.item {
                        let tied = ItemTimedOverlay(content, item: item, from: table.from, until: table.until, clock: clock)
                        timed.append(tied)
                        content = tied
                    }
                    let written = table.rect ?? Self.anchored(table, size: size)
                    let frame = layer.map { Self.place(written, inside: $0.rect, on: display.screenSize) } ?? written
                    layers.append(display.addOverlay(LayerSettings(frame: frame, zPosition: table.z, opacity: table.opacity), content: content))
                }
                made.append(Overlay(name: table.name, kind: table.kind, layers: layers, texts: texts, timed: timed))
            } catch {
                log.error("\(Self.place(table))\(table.name): \(error); not shown")
            }
        }
        overlays = made
        osd = Self.makeOSD(on: displays(nil), log: log)
    }

    /// mpv's OSD text: white on a dark box, bottom centre, above every overlay.
    private static func makeOSD(on displays: [LayeredDisplay], log: ControlLog) -> (TextOverlay, [DisplayLayer])? {
        let style = TextStyle(size: 48, color: 0xffffff, outline: 0, box: 0x202020, alignment: 2)
        do {
            let text = try TextOverlay(text: "", style: style)
            let frame = LayerRect(x: .pixels(0), y: .anchored(percent: 100, pixels: -160), width: .percent(100), height: .pixels(136))
            // Hidden until the first show-text: no plane or blending for it before.
            return (text, displays.map { $0.addOverlay(LayerSettings(frame: frame, zPosition: Int.max, isHidden: true), content: text) })
        } catch {
            log.error("show-text: \(error); it will not be shown")
            return nil
        }
    }

    /// Ties the overlays with an `item` to the main player: its item
    /// changes, seeks, loop seams and rate changes redraw them at once.
    /// The handler lives as long as the player.
    func follow(_ player: Player) {
        let tied = overlays.filter { !$0.timed.isEmpty }
        guard !tied.isEmpty else { return }
        for overlay in tied { overlay.timed.forEach { $0.follow(player) } }
        let layers = tied.flatMap(\.layers)
        _ = player.addEventHandler { event in
            switch event {
            case .currentItemChanged, .timeJumped, .didPlayToEnd, .rateChanged, .timeControlStatusChanged:
                layers.forEach { $0.redraw() }
            default: break
            }
        }
    }

    /// `show-text`: the text for `seconds`, replacing any shown.
    func showText(_ text: String, seconds: Double) throws(ControlError) {
        guard let osd else { throw ControlError("show-text: the text renderer could not start") }
        osd.text.show(text, until: clock.now() + .nanoseconds(Int64(seconds * 1e9)))
        for layer in osd.layers {
            layer.settings.isHidden = false
            layer.redraw()
        }
    }

    /// `overlay NAME on|off`.
    func setVisible(_ name: String, _ visible: Bool) throws(ControlError) {
        guard let overlay = overlays.first(where: { $0.name == name }) else {
            let names = overlays.map(\.name)
            throw ControlError("overlay: no overlay '\(name.prefix(40))'" + (names.isEmpty ? " (there are none)" : " (have: \(names.joined(separator: ", ")))"))
        }
        for layer in overlay.layers { layer.settings.isHidden = !visible }
    }

    private static func place(_ table: OverlayConfiguration) -> String { table.location.map { "\($0): " } ?? "" }

    private static func style(_ table: OverlayConfiguration) -> TextStyle {
        TextStyle(font: table.font, size: table.size, color: table.color.rgb, outline: table.outline, box: table.box?.rgb,
                  alignment: table.rect == nil ? table.anchor.keypad : 5)
    }

    /// What draws the overlay, and the size it takes where it is anchored.
    private static func content(_ table: OverlayConfiguration, configPath: String?,
                                log: ControlLog) throws -> (any OverlayContent, PixelSize) {
        let style = style(table)
        switch table.kind {
        case .image:
            let image = try ImageOverlay(path: resolved(table.path, configPath))
            return (image, image.naturalSize)
        case .text:
            return (try TextOverlay(text: table.text, style: style), try TextOverlay.measure(table.text, style: style))
        case .clock:
            let clock = try ClockOverlay(format: table.format, style: style)
            // Digits vary in width in some fonts: a tenth over.
            let sample = try TextOverlay.measure(clock.sampleText, style: style)
            return (clock, PixelSize(width: (sample.width * 11 / 10 + 1) & ~1, height: sample.height))
        case .ticker:
            let file = table.file.isEmpty ? nil : resolved(table.file, configPath)
            let ticker = try TickerOverlay(text: table.text, file: file, speed: table.speed, style: style, onEvent: { log.warning($0) })
            return (ticker, PixelSize(width: 0, height: (Int(table.size * 1.5) + 1) & ~1))
        }
    }

    /// `rect` inside a layer's `outer` rect, in the display's pixels; as
    /// written where the display's size is not known yet (one awaited).
    static func place(_ rect: LayerRect, inside outer: LayerRect, on screen: PixelSize?) -> LayerRect {
        guard let screen, let layer = outer.resolve(on: screen),
              let inner = rect.resolve(on: PixelSize(width: layer.width, height: layer.height)) else { return rect }
        return .pixels(x: layer.x + inner.x, y: layer.y + inner.y, width: inner.width, height: inner.height)
    }

    /// An overlay without `rect`: at its anchor at its own size; a ticker across the whole width.
    private static func anchored(_ table: OverlayConfiguration, size: PixelSize) -> LayerRect {
        guard table.kind == .ticker else { return table.anchor.rect(size: size, margin: table.margin) }
        let row = table.anchor.rect(size: size, margin: table.margin)
        return LayerRect(x: .pixels(0), y: row.y, width: .percent(100), height: .pixels(size.height))
    }

    private static func resolved(_ path: String, _ configPath: String?) -> String {
        guard !path.hasPrefix("/"), let base = PlaylistLoader.base(configPath) else { return path }
        return base + "/" + path
    }

    /// Each overlay: its name, kind, where it is and whether it shows.
    var status: [[String: JSONValue]] {
        overlays.map { overlay in
            let first = overlay.layers.first
            return ["name": .string(overlay.name), "kind": .string(overlay.kind.rawValue),
                    "rect": first?.placement.map { .string("\($0)") } ?? .null,
                    "visible": .bool(first.map { !$0.settings.isHidden } ?? false)]
        }
    }
}
