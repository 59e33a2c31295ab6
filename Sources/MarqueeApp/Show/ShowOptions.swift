import Marquee
import MarqueeALSA
import MarqueeConfig
import MarqueeKMS

/// What a `Show` is made from: the configuration file's settings (or the
/// defaults), what was set over them (`marquee play`'s options), and the
/// outputs to play on.
public struct ShowOptions: Sendable {
    /// The file's configuration, or the defaults.
    public var configuration: MarqueeConfiguration
    /// The file it came from, which relative paths and reloads start from; nil for none.
    public var configPath: String?
    /// What was set over the file, which a reload must not undo.
    public var overrides = PlayControls.Overrides()
    /// What plays first: the scheduled playlist's items, or the ones given.
    public var inputs: [PlaylistResolver.Item] = []
    /// What the schedule shows at the start (`inputs` are its playlist's).
    public var scheduled: ScheduledContent = .defaultPlaylist
    public var loop: LoopMode = .none
    /// Passes in all with `loop` (nil: forever).
    public var loops: Int?
    public var videoOut: ShowOutput = .null
    /// nil: no sound.
    public var audioOut: ShowOutput?
    /// How fast the simulated sound card (null, wav) runs, parts per million.
    public var audioDriftPPM = 0.0
    /// The ALSA device and buffer, for `audioOut` `.alsa`.
    public var alsa = ALSAAudioOutput.Configuration(device: "default")
    public var kms = KMSOptions()
    /// A picture drawn before the first frame; nil for none.
    public var splash: String?
    public var rate = 1.0
    /// Seconds into the first item; nil for its start.
    public var start: Double?
    public var imageDuration = 10.0
    public var transition = ItemTransition.cut
    /// At the end, hold the last frame and keep running.
    public var keepOpen = false
    /// As fast as the machine goes, every frame shown (outputs on virtual clocks).
    public var untimed = false
    /// Video decoder threads; 0 picks one per core.
    public var threads = 0
    public var hardwareDecoding = HardwareDecoding(mode: .auto)
    public var deinterlacing = Deinterlacing()
    public var rtspTransport = RTSPTransport.tcp
    /// Counters, A-V offsets, seams and memory as JSON at exit.
    public var statsPath: String?
    /// Every presented frame as a JSON line at exit.
    public var presentationLogPath: String?
    /// One JSON line per item shown (proof of play); nil for none.
    public var playLogPath: String?

    public init(configuration: MarqueeConfiguration, configPath: String?) {
        self.configuration = configuration
        self.configPath = configPath
    }

    /// The configuration in force once what was set over the file is in.
    public var effective: MarqueeConfiguration {
        var effective = configuration
        effective.playback.loop = loop
        effective.playback.rate = rate
        effective.audio.enabled = audioOut != nil
        return effective
    }

    /// `[playback] between_items` for `between_items_ms`; the blank is the
    /// border colour, so the whole screen shows it.
    func betweenItems(background: UInt32) -> PauseBetweenItems {
        let playback = configuration.playback
        guard playback.betweenItemsMs > 0 else { return .cut }
        let seconds = Double(playback.betweenItemsMs) / 1000
        return switch playback.betweenItems {
        case .holdLastFrame: .hold(seconds: seconds)
        case .black: .blank(seconds: seconds, rgb: background)
        }
    }
}

/// Where a show's pictures or sound go.
public enum ShowOutput: Sendable, Equatable {
    case null
    /// The null display, taking only XRGB8888 (a KMS plane without YUV),
    /// so every frame goes through the engine's pixel conversion.
    case nullXRGB
    /// PNG/y4m files in a folder (video), a WAV file (audio).
    case file(String)
    /// A KMS plane on the DRM card (the default where one exists).
    case kms
    /// An ALSA PCM by name.
    case alsa(String)
}
