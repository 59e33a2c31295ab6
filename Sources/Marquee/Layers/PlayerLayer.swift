/// A player shown in a rectangle of a display, among other layers
/// (AVPlayerLayer): its own `QueuePlayer` (clock, presenter, sound) whose
/// pictures go to a layer of `display`. Frame, gravity, stacking, opacity
/// and visibility can change while it plays; the display puts the change
/// up with its next commit.
///
///     let display = try LayeredDisplay.kms(options: KMSOptions(), clock: MonotonicClock())
///     let video = PlayerLayer(display: display, settings: LayerSettings(frame: .pixels(x: 0, y: 0, width: 960, height: 1080)),
///                             items: [PlayerItem(url: clip)], configuration: PlayerConfiguration(videoOutput: nil, audioOutput: alsa))
///     video.player.play()
public final class PlayerLayer: Sendable {
    public let player: QueuePlayer
    /// What the player presents through: the display's layer.
    public let output: any VideoLayer
    private let display: any LayerDisplay

    /// A new layer on `display` and its player; `configuration`'s video
    /// output is replaced by the layer.
    public init(display: any LayerDisplay, settings: LayerSettings = LayerSettings(), items: [PlayerItem] = [],
                configuration: PlayerConfiguration) {
        self.display = display
        output = display.addLayer(settings)
        var configuration = configuration
        configuration.videoOutput = output
        player = QueuePlayer(items: items, configuration: configuration)
    }

    public var frame: LayerRect {
        get { output.settings.frame }
        set { output.settings.frame = newValue }
    }

    public var videoGravity: VideoGravity {
        get { output.settings.gravity }
        set { output.settings.gravity = newValue }
    }

    public var zPosition: Int {
        get { output.settings.zPosition }
        set { output.settings.zPosition = newValue }
    }

    public var opacity: Double {
        get { output.settings.opacity }
        set { output.settings.opacity = min(max(newValue, 0), 1) }
    }

    public var isHidden: Bool {
        get { output.settings.isHidden }
        set { output.settings.isHidden = newValue }
    }

    /// A picture of this layer has reached the screen.
    public var isReadyForDisplay: Bool { output.isReadyForDisplay }

    /// Where the layer is on the display now; nil while the display is not there.
    public var placement: PixelRect? { output.placement }

    /// Stops the player and takes the layer off the display.
    public func remove() {
        player.stop()
        display.removeLayer(output)
    }
}
