/// Where a layer sits on its display: `[x, y, w, h]`, each a number of
/// pixels or a percentage of the display's width (x, w) or height (y, h),
/// so one layout fits displays of any mode.
public struct LayerRect: Sendable, Equatable, CustomStringConvertible {
    public enum Length: Sendable, Equatable, CustomStringConvertible {
        case pixels(Int)
        case percent(Double)
        /// A share of the display plus pixels: where an overlay anchored to
        /// an edge or the middle starts (`100%` less its size and margin).
        case anchored(percent: Double, pixels: Int)

        func resolve(in whole: Int) -> Int {
            switch self {
            case .pixels(let count): count
            case .percent(let share): Int((share * Double(whole) / 100).rounded())
            case .anchored(let share, let count): Int((share * Double(whole) / 100).rounded()) + count
            }
        }

        public var description: String {
            switch self {
            case .pixels(let count): "\(count)"
            case .percent(let share): "\"\(String(share, significant: 6))%\""
            case .anchored(let share, let count): "\"\(String(share, significant: 6))% \(count < 0 ? "-" : "+") \(abs(count))\""
            }
        }
    }

    public var x: Length
    public var y: Length
    public var width: Length
    public var height: Length

    public init(x: Length, y: Length, width: Length, height: Length) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole display.
    public static let fullScreen = LayerRect(x: .pixels(0), y: .pixels(0), width: .percent(100), height: .percent(100))

    /// A rectangle in pixels.
    public static func pixels(x: Int, y: Int, width: Int, height: Int) -> LayerRect {
        LayerRect(x: .pixels(x), y: .pixels(y), width: .pixels(width), height: .pixels(height))
    }

    /// The rectangle on a `screen`-sized display, cut to the screen and made
    /// even (4:2:0 pictures and most planes start and end on even pixels);
    /// nil where nothing of it is on the screen.
    public func resolve(on screen: PixelSize) -> PixelRect? {
        let left = x.resolve(in: screen.width), top = y.resolve(in: screen.height)
        let right = min(screen.width, left + width.resolve(in: screen.width))
        let bottom = min(screen.height, top + height.resolve(in: screen.height))
        let (x0, y0) = (max(0, left) & ~1, max(0, top) & ~1)
        let (x1, y1) = (right & ~1, bottom & ~1)
        guard x1 - x0 >= 2, y1 - y0 >= 2 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String { "[\(x), \(y), \(width), \(height)]" }
}

/// How one layer shows its player's pictures (AVPlayerLayer's properties):
/// where, by which gravity, in which stacking order, how opaque.
public struct LayerSettings: Sendable, Equatable {
    public var frame: LayerRect
    public var gravity: VideoGravity
    /// Higher is nearer the viewer; layers of one z stack in the order they were added.
    public var zPosition: Int
    /// 0 (invisible) to 1 (opaque).
    public var opacity: Double
    public var isHidden: Bool
    /// What fills the layer's rectangle around the picture, 0xRRGGBB.
    public var background: UInt32
    /// Clockwise degrees overriding the picture's own orientation; nil follows it.
    public var rotation: Int?

    public init(frame: LayerRect = .fullScreen, gravity: VideoGravity = .resizeAspect, zPosition: Int = 0, opacity: Double = 1,
                isHidden: Bool = false, background: UInt32 = 0, rotation: Int? = nil) {
        self.frame = frame
        self.gravity = gravity
        self.zPosition = zPosition
        self.opacity = min(max(opacity.isNaN ? 1 : opacity, 0), 1)
        self.isHidden = isHidden
        self.background = background
        self.rotation = rotation
    }
}

/// The output a display gives one of its layers: the player of that layer
/// presents through it (`ScanOutOutput`, presenter thread only); the
/// settings may change from any thread and take effect at the display's
/// next commit.
public protocol VideoLayer: ScanOutOutput, ScreenPowerOutput, Sendable {
    /// Read and written from any thread.
    var settings: LayerSettings { get set }
    /// Whether a picture of this layer has reached the screen (AVPlayerLayer's `isReadyForDisplay`).
    var isReadyForDisplay: Bool { get }
    /// The layer's place on its display now, or nil while the display is not there.
    var placement: PixelRect? { get }
}

/// A display that shows layers, each a player's pictures (MarqueeKMS's
/// `LayeredDisplay`); one owner commits every layer's change together.
public protocol LayerDisplay: AnyObject, Sendable {
    /// A new layer, on screen from its first picture.
    func addLayer(_ settings: LayerSettings) -> any VideoLayer
    /// Takes a layer off the screen; its player must be stopped first.
    func removeLayer(_ layer: any VideoLayer)
}
