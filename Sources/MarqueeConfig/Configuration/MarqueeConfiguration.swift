import MarqueeCore

/// Everything `config.toml` can say, with the defaults a missing key takes.
/// Built by `MarqueeConfiguration.parse(_:file:validateAction:)`, which checks
/// every type, range and name; a value of this type is always valid.
/// A value type: copy it freely between threads.
public struct MarqueeConfiguration: Sendable, Equatable {
    public var display = Display()
    public var decode = Decode()
    public var audio = Audio()
    public var playback = Playback()
    public var captions = Captions()
    public var fleet = Fleet()
    public var sync = Sync()
    /// `[playlists.NAME]`, in the file's order.
    public var playlists: [NamedPlaylist] = []
    /// `[[schedule]]`, in the file's order (the first whose window holds an instant decides).
    public var schedule: [ScheduleEntry] = []
    /// `[schedule_options]`.
    public var scheduleOptions = ScheduleOptions()
    /// `[[layer]]`, in the file's order; none: one full-screen layer playing `[playback]`.
    public var layers: [LayerConfiguration] = []
    /// `[[overlay]]`, in the file's order: drawn over the layers.
    public var overlays: [OverlayConfiguration] = []
    public var controls = Controls()
    public var log = Log()

    public init() {}

    /// The `[playlists.NAME]` called `name`.
    public func playlist(named name: String) -> NamedPlaylist? {
        playlists.first { $0.name == name }
    }

    /// `[display]`: where the picture goes.
    public struct Display: Sendable, Equatable {
        /// DRM card device, e.g. "/dev/dri/card0"; "auto" takes the first with a connected display.
        public var card = "auto"
        /// Connector name as the kernel gives it ("HDMI-A-1"); "auto" takes the first connected.
        public var connector = "auto"
        public var mode = DisplayModeRequest.preferred
        public var plane = PlaneRequest.auto
        public var gravity = VideoGravity.resizeAspect
        /// Clockwise rotation of the picture in degrees (0, 90, 180, 270);
        /// nil ("auto") follows the video's own rotation.
        public var rotation: Int?
        /// What fills the screen around the picture.
        public var background = RGBColor(red: 0, green: 0, blue: 0)
        /// The same layout on every display connected at the start.
        public var mirror = false
        /// A picture (PNG, JPEG...) shown before the first item and while
        /// nothing can play, relative to the file's folder; "" for none
        /// (the background colour while waiting).
        public var splash = ""
    }

    /// `[captions]`: subtitles over the picture, where an item has them
    /// (a track in its file, or a `.srt`, `.vtt` or `.ass` file beside it).
    public struct Captions: Sendable, Equatable {
        public var show = true
        /// Languages preferred, best first ("de", "en"); an item with none
        /// of them shows its first captions.
        public var languages: [String] = []
    }

    /// `[decode]`: how video is decoded.
    public struct Decode: Sendable, Equatable {
        public var hwaccel = HardwareAcceleration.auto
        /// VA-API render node, e.g. "/dev/dri/renderD128"; "auto" takes the first.
        public var device = "auto"
        /// Software decoder threads; 0 = one per core.
        public var threads = 0
        /// Which pictures are deinterlaced: those that say they are interlaced, all, or none.
        public var deinterlace = Deinterlacing.Mode.auto
        /// One picture per frame, or one per field (twice the frame rate).
        public var deinterlaceRate = Deinterlacing.Rate.frame

        /// `deinterlace` and `deinterlaceRate` as the player takes them.
        public var deinterlacing: Deinterlacing { Deinterlacing(mode: deinterlace, rate: deinterlaceRate) }
    }

    /// `[audio]`: where the sound goes.
    public struct Audio: Sendable, Equatable {
        public var enabled = true
        /// ALSA device name ("default", "hw:0,0", "plughw:1").
        public var device = "default"
        /// Software gain, 0...1.
        public var volume = 1.0
        /// Output buffer the ALSA device is asked for, milliseconds.
        public var latencyMs = 100
    }

    /// `[playback]`: what plays and how.
    public struct Playback: Sendable, Equatable {
        /// Files, folders, globs and URLs as written; see `PlaylistResolver`.
        public var playlist: [PlaylistEntry] = []
        public var loop = LoopMode.none
        /// Play the playlist in a random order (chosen at start and at each reload).
        public var shuffle = false
        /// Where the first item starts, seconds.
        public var start = 0.0
        /// Playback speed, in `PlaybackRate.range`.
        public var rate = 1.0
        /// Seconds a still picture (JPEG, PNG, WebP, BMP...) stays up.
        public var imageDuration = 10.0
        public var betweenItems = BetweenItems.holdLastFrame
        /// How long `betweenItems` lasts, milliseconds (0 = a seamless cut).
        public var betweenItemsMs = 0
        public var transition = Transition.cut
        /// How long a fade lasts, milliseconds: half down, half up, within the items' own time.
        public var transitionMs = 500
        public var onError = OnError.skip
        /// A network item that cannot be reached: move on and try it next
        /// time round, or wait for it (a show with nothing else always waits).
        public var onUnavailable = UnavailablePolicy.skip
        /// The longest wait between two attempts to reach it, seconds (from 1 s, doubling).
        public var retryMax = 30.0
        /// Seconds behind its newest segment a live HLS stream starts.
        public var liveLatency = 6.0
        /// Seconds of a network item read ahead of playback.
        public var forwardBuffer = 4.0
        /// A network item that runs dry waits for `forwardBuffer` seconds
        /// before playing on, rather than playing frames as they come.
        public var waitToMinimizeStalls = true
        /// An HLS stream's variant: the highest within this many bits per
        /// second (0: no limit) and this picture size ("": no limit).
        public var peakBitrate = 0.0
        public var maxResolution = MaximumResolution()
        /// How an rtsp:// item's packets come: "tcp", on the RTSP connection,
        /// or "udp", on ports of their own (some servers offer only one).
        public var rtspTransport = RTSPTransport.tcp
        /// At the end of the playlist, keep the last frame up and the player
        /// running (its controls too) instead of exiting.
        public var keepOpen = false
        /// The folders a playlist sent over the control channels may name
        /// files in (relative to the file's folder); none: such playlists
        /// are refused. Paths are confined after resolving `..` and links.
        public var mediaRoots: [String] = []
    }

    public struct Controls: Sendable, Equatable {
        public var stdin = StdinControl()
        public var socket = SocketControl()
        public var http = HTTPControl()
        public var gpio: [GPIOButton] = []
    }

    /// `[controls.socket]`: newline-delimited JSON commands and events on a
    /// Unix socket, for the player's user and group (mode 0660).
    public struct SocketControl: Sendable, Equatable {
        /// Where the socket is made ("/run/marquee/control.sock"); "" for none.
        public var path = ""
    }

    /// `[controls.http]`: the HTTP API (status, commands, events, a
    /// screenshot, the playlist) and a status page.
    public struct HTTPControl: Sendable, Equatable {
        /// "ADDRESS:PORT" (numeric) to listen on ("127.0.0.1:8080", "[::1]:8080",
        /// "0.0.0.0:8443"); "" for none. Anything but loopback needs
        /// `tokenFile` and TLS (`certFile`, `keyFile`).
        public var listen = ""
        /// A file holding the bearer token every request must carry.
        public var tokenFile = ""
        /// PEM certificate and private key: HTTPS instead of HTTP.
        public var certFile = ""
        public var keyFile = ""
        /// Where a playlist sent with PUT /playlist is kept; it takes the
        /// place of `[playback] playlist` at the next start. "" : under
        /// $STATE_DIRECTORY (systemd's StateDirectory), else none.
        public var playlistFile = ""
        /// The folder `PUT /media/NAME` writes to and `GET /media` lists; it
        /// must lie inside one of `[playback] media_roots`. "": the first root.
        public var uploadDir = ""
        /// The largest upload, in MiB (2^20 bytes).
        public var maxUploadMB = 2048

        /// Whether `listen` names a loopback address (127.0.0.0/8, ::1).
        public var listensOnLoopback: Bool {
            guard let host = Self.host(of: listen) else { return false }
            return host == "::1" || host.hasPrefix("127.")
        }

        /// The numeric host of "IPV4:PORT" or "[IPV6]:PORT"; nil when it is
        /// not of that form (names are not looked up: which address
        /// "localhost" means is the resolver's to say, not the file's).
        static func host(of listen: String) -> String? {
            guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
                  (0...65_535).contains(port) else { return nil }
            let host = String(listen[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") {
                let inner = host.dropFirst().dropLast()
                return !inner.isEmpty && inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) ? String(inner) : nil
            }
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4 && parts.allSatisfy({ UInt8($0) != nil }) ? host : nil
        }
    }

    /// `[controls.stdin]`: commands on standard input, replies on standard output.
    public struct StdinControl: Sendable, Equatable {
        public var enabled = true
        public var format = ControlFormat.text
    }

    /// One `[[controls.gpio]]` entry: a button on a GPIO line.
    public struct GPIOButton: Sendable, Equatable {
        /// Chip name ("gpiochip0") or device path ("/dev/gpiochip0").
        public var chip: String
        /// Line offset on the chip.
        public var line: Int
        /// The logical edge (after `activeLow`) that runs `action`.
        public var edge = ButtonEdge.rising
        /// The button pulls the line low when pressed (the usual wiring with a pull-up).
        public var activeLow = false
        /// The line must stay at a new level this long before it counts, milliseconds.
        public var debounceMs = 20
        /// A control command, e.g. "toggle", "next", "seek +10".
        public var action: String
        /// Held at least this long, the press runs `longAction` instead; 0 = no long press.
        public var longPressMs = 0
        public var longAction: String?
        /// Where the entry is in the file, for messages about it at run time.
        public var location: SourceLocation?

        public init(chip: String, line: Int, action: String) {
            self.chip = chip
            self.line = line
            self.action = action
        }

        /// Equal settings; where they were written does not count.
        public static func == (a: Self, b: Self) -> Bool {
            (a.chip, a.line, a.edge, a.activeLow) == (b.chip, b.line, b.edge, b.activeLow)
                && (a.debounceMs, a.action, a.longPressMs, a.longAction) == (b.debounceMs, b.action, b.longPressMs, b.longAction)
        }
    }

    /// `[log]`.
    public struct Log: Sendable, Equatable {
        public var level = LogLevel.info
        /// Seconds between status events on standard output; 0 = none.
        public var statusInterval = 0.0
        /// The play log ("proof of play": one JSON line per item shown),
        /// relative to the file's folder; "" for none.
        public var plays = ""
    }
}
