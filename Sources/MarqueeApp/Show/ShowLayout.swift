import Marquee
import MarqueeConfig
import MarqueeControl
import MarqueeKMS

/// A show's `[[layer]]` layout: the displays it is on (one per connector
/// the layers name, or, with `[display] mirror`, every connected one
/// showing the whole layout), the main layer's output (its player is the
/// show's, which the controls and the schedule drive and whose sound
/// plays) and a player of its own for each other layer, looping its
/// playlist on host time, muted.
final class ShowLayout: Sendable {
    /// In the order the file names them; the first is the default display.
    let displays: [LayeredDisplay]
    /// What the show's player presents through.
    let main: any VideoLayer
    let mainName: String
    /// The other layers, their names and the display each is on, in the file's order.
    let others: [(name: String, layer: PlayerLayer, display: String)]
    /// The display the main layer is on.
    let mainDisplay: String
    /// `[[overlay]]`s, over the layers.
    let overlays: ShowOverlays

    /// - Parameters:
    ///   - base: the main player's configuration; the other layers take it
    ///     without sound, splash or presentation log.
    init(options: ShowOptions, clock: any HostClock, base: PlayerConfiguration, log: ControlLog) throws {
        let configuration = options.configuration
        // Overlays alone: one layer playing the show's playlist on the whole display under them.
        let tables = configuration.layers.isEmpty ? [LayerConfiguration.wholeScreen(configuration.display)] : configuration.layers
        var kms = options.kms
        kms.onDisplayEvent = { Diagnostics.error($0) }
        let mirrored = configuration.display.mirror
        // Unnamed layers go on `[display] connector`, else on the first display a layer names.
        let defaultName = kms.connector ?? tables.lazy.compactMap(\.display).first
        var names: [String?] = []
        for layer in tables where !names.contains(layer.display ?? defaultName) { names.append(layer.display ?? defaultName) }
        var displays: [LayeredDisplay] = []
        do {
            if options.videoOut == .kms, mirrored {
                displays = try LayeredDisplay.kmsEveryConnected(options: kms, clock: clock)
            } else if options.videoOut == .kms {
                for name in names {
                    var one = kms
                    one.connector = name
                    displays.append(try LayeredDisplay.kms(options: one, clock: clock))
                }
            } else {
                for name in mirrored ? [nil] : names {
                    displays.append(LayeredDisplay.memory(width: Self.memorySize.width, height: Self.memorySize.height, clock: clock,
                                                          background: options.kms.background, name: name ?? "memory"))
                }
            }
        } catch {
            for display in displays { display.close() }
            throw error
        }
        self.displays = displays
        let fanOut = mirrored ? MirroredDisplay(displays) : nil
        /// The display a layer names (else the default one's).
        func named(_ layer: LayerConfiguration) -> LayeredDisplay {
            names.firstIndex(of: layer.display ?? defaultName).map { displays[$0] } ?? displays[0]
        }
        func placed(_ layer: LayerConfiguration) -> (display: any LayerDisplay, name: String) {
            if let fanOut { return (fanOut, displays.map(\.name).joined(separator: "+")) }
            let display = named(layer)
            return (display, display.name)
        }
        if mirrored, let named = tables.first(where: { $0.display != nil }) {
            log.warning("\(named.location.map { "\($0): " } ?? "")\(named.name): display '\(named.display!)': [display] mirror shows every layer on every display")
        }
        let mainIndex = configuration.mainLayerIndex ?? 0
        var main: (any VideoLayer)?
        var others: [(name: String, layer: PlayerLayer, display: String)] = []
        for (index, layer) in tables.enumerated() {
            let settings = LayerSettings(frame: layer.rect, gravity: layer.gravity, zPosition: layer.z, opacity: layer.opacity,
                                         background: layer.background.rgb, rotation: options.kms.rotation)
            guard index != mainIndex else {
                main = placed(layer).display.addLayer(settings)
                continue
            }
            var own = base
            own.audioOutput = nil
            own.splash = nil
            own.keepsPresentationLog = false
            let shown = configuration.showing(layer.content.scheduled)
            let items = Self.items(of: layer, in: shown, configPath: options.configPath, log: log)
            let player = PlayerLayer(display: placed(layer).display, settings: settings, items: items.map(PlayerItem.init), configuration: own)
            player.player.loopMode = layer.content.named.flatMap { configuration.playlist(named: $0)?.loop } ?? .playlist
            others.append((layer.name, player, placed(layer).name))
        }
        self.main = main!
        mainName = tables[mainIndex].name
        mainDisplay = placed(tables[mainIndex]).name
        let mainLayerDisplay = named(tables[mainIndex])
        overlays = ShowOverlays(configuration.overlays, configPath: options.configPath, log: log, clock: clock, displays: { name in
            if mirrored { return displays }
            return [name.flatMap { name in displays.first { $0.name == name } } ?? mainLayerDisplay]
        }, layers: { name in
            guard let layer = tables.first(where: { $0.name == name }) else { return nil }
            return (mirrored ? displays : [named(layer)], layer.rect)
        })
        self.others = others
    }

    /// The display of that name (its connector's, or its key in memory).
    func display(named name: String) -> LayeredDisplay? { displays.first { $0.name == name } }

    /// One line per display: its connector, mode and planes.
    var summary: String { displays.map(\.summary).joined(separator: "; ") }

    /// A null or file output's layout is composed in memory at this size.
    static let memorySize = PixelSize(width: 1920, height: 1080)

    private static func items(of layer: LayerConfiguration, in shown: MarqueeConfiguration, configPath: String?,
                              log: ControlLog) -> [PlaylistResolver.Item] {
        var configuration = shown
        if case .items(let entries) = layer.content { configuration.playback.playlist = entries }
        let items = PlaylistLoader(log: log).items(for: configuration, configPath: configPath)
        if items.isEmpty { log.warning("\(layer.location.map { "\($0): " } ?? "")\(layer.name): nothing to play; the layer shows its background") }
        return items
    }

    func start() {
        for (_, layer, _) in others { layer.player.play() }
    }

    /// The other layers' players, then the displays (the console comes back).
    func stop() {
        for (_, layer, _) in others { layer.player.stop() }
        for display in displays { display.close() }
    }

    /// Each layer, bottom first: its name, place, whether it is on screen and what it plays.
    func status(mainPlaying: String?) -> [[String: JSONValue]] {
        var entries: [(z: Int, fields: [String: JSONValue])] = []
        func fields(_ name: String, _ layer: any VideoLayer, display: String, playing: String?) -> (Int, [String: JSONValue]) {
            let settings = layer.settings
            var fields: [String: JSONValue] = ["name": .string(name), "display": .string(display), "rect": .string("\(settings.frame)"),
                                               "z": .integer(Int64(settings.zPosition)),
                                               "ready": .bool(layer.isReadyForDisplay), "playing": playing.map(JSONValue.string) ?? .null]
            if let place = layer.placement { fields["placement"] = .string("\(place)") }
            return (settings.zPosition, fields)
        }
        entries.append(fields(mainName, main, display: mainDisplay, playing: mainPlaying))
        for (name, layer, display) in others {
            entries.append(fields(name, layer.output, display: display, playing: layer.player.currentItem?.asset.source))
        }
        return entries.sorted { $0.z < $1.z }.map(\.fields)
    }
}

extension LayerConfiguration.Content {
    var named: String? { if case .playlist(let name) = self { name } else { nil } }
    var scheduled: ScheduledContent { named.map { .playlist($0) } ?? .defaultPlaylist }
}
