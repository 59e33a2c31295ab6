import Marquee
import MarqueeConfig
import MarqueeControl
import MarqueeKMS

/// A show's `[[layer]]` layout: one display that holds every layer, the
/// main layer's output (its player is the show's, which the controls and
/// the schedule drive and whose sound plays) and a player of its own for
/// each other layer, looping its playlist on host time, muted.
final class ShowLayout: Sendable {
    let display: LayeredDisplay
    /// What the show's player presents through.
    let main: any VideoLayer
    let mainName: String
    /// The other layers and their names, in the file's order.
    let others: [(name: String, layer: PlayerLayer)]

    /// - Parameters:
    ///   - base: the main player's configuration; the other layers take it
    ///     without sound, splash or presentation log.
    init(options: ShowOptions, clock: any HostClock, base: PlayerConfiguration, log: ControlLog) throws {
        let configuration = options.configuration
        var kms = options.kms
        kms.onDisplayEvent = { Diagnostics.error($0) }
        if options.videoOut == .kms {
            // The first layer's connector names the display; the others are drawn on it too (one display per show).
            if kms.connector == nil, let named = configuration.layers.lazy.compactMap(\.display).first { kms.connector = named }
            display = try LayeredDisplay.kms(options: kms, clock: clock)
        } else {
            display = LayeredDisplay.memory(width: Self.memorySize.width, height: Self.memorySize.height, clock: clock,
                                            background: options.kms.background)
        }
        let mainIndex = configuration.mainLayerIndex ?? 0
        var main: (any VideoLayer)?
        var others: [(name: String, layer: PlayerLayer)] = []
        for (index, layer) in configuration.layers.enumerated() {
            let settings = LayerSettings(frame: layer.rect, gravity: layer.gravity, zPosition: layer.z, opacity: layer.opacity,
                                         background: layer.background.rgb, rotation: options.kms.rotation)
            if let connector = layer.display, connector != display.name, options.videoOut == .kms {
                log.warning("\(layer.location.map { "\($0): " } ?? "")\(layer.name): display '\(connector)': shown on \(display.name), the show's one display")
            }
            guard index != mainIndex else {
                main = display.addLayer(settings)
                continue
            }
            var own = base
            own.audioOutput = nil
            own.splash = nil
            own.keepsPresentationLog = false
            let shown = configuration.showing(layer.content.scheduled)
            let items = Self.items(of: layer, in: shown, configPath: options.configPath, log: log)
            let player = PlayerLayer(display: display, settings: settings, items: items.map(PlayerItem.init), configuration: own)
            player.player.loopMode = layer.content.named.flatMap { configuration.playlist(named: $0)?.loop } ?? .playlist
            others.append((layer.name, player))
        }
        self.main = main!
        mainName = configuration.layers[mainIndex].name
        self.others = others
    }

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
        for (_, layer) in others { layer.player.play() }
    }

    /// The other layers' players, then the display (the console comes back).
    func stop() {
        for (_, layer) in others { layer.player.stop() }
        display.close()
    }

    /// Each layer, bottom first: its name, place, whether it is on screen and what it plays.
    func status(mainPlaying: String?) -> [[String: JSONValue]] {
        var entries: [(z: Int, fields: [String: JSONValue])] = []
        func fields(_ name: String, _ layer: any VideoLayer, playing: String?) -> (Int, [String: JSONValue]) {
            let settings = layer.settings
            var fields: [String: JSONValue] = ["name": .string(name), "rect": .string("\(settings.frame)"), "z": .integer(Int64(settings.zPosition)),
                                               "ready": .bool(layer.isReadyForDisplay), "playing": playing.map(JSONValue.string) ?? .null]
            if let place = layer.placement { fields["placement"] = .string("\(place)") }
            return (settings.zPosition, fields)
        }
        entries.append(fields(mainName, main, playing: mainPlaying))
        for (name, layer) in others { entries.append(fields(name, layer.output, playing: layer.player.currentItem?.asset.source)) }
        return entries.sorted { $0.z < $1.z }.map(\.fields)
    }
}

extension LayerConfiguration.Content {
    var named: String? { if case .playlist(let name) = self { name } else { nil } }
    var scheduled: ScheduledContent { named.map { .playlist($0) } ?? .defaultPlaylist }
}
