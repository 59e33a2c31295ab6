import MarqueeCore

/// One layer's buffer on its own hardware plane, as a commit puts it up.
struct PlaneContent {
    let plane: UInt32
    /// Kept by the commit until a later one replaces it: a framebuffer
    /// removed while scanned out would take the plane down.
    let buffer: any ComposedBuffer
    let destination: PixelRect
}

/// What a head says happened to its display while nothing was committed.
enum HeadChange: Equatable {
    /// The display came back or changed its mode: every layer is placed
    /// and drawn again (the primary buffers are new).
    case remade
}

/// The screen a `LayeredDisplay` commits to: a CRTC with its planes
/// (`KMSHead`) or memory (`MemoryHead`). The display owner's thread is the
/// only caller, so a head needs no lock of its own; `screenSize` is also
/// read under the owner's lock by layers placing themselves.
protocol DisplayHead: AnyObject {
    /// "Virtual-1", "memory".
    var name: String { get }
    /// One line: the connector, its mode, the planes layers may use.
    var summary: String { get }
    /// The screen's size; nil while no display is there.
    var screenSize: PixelSize? { get }
    var refreshInterval: Duration { get }
    /// Screen-sized XRGB8888 buffers that the layers without a plane are
    /// composed into (the primary plane's), painted in the background
    /// colour when made. Empty while no display is there.
    var primary: [any ComposedBuffer] { get }
    /// Changes whenever `primary` is made anew, so the owner forgets what it drew.
    var primaryEpoch: Int { get }
    /// The primary buffer to compose next: neither on screen nor queued.
    var nextPrimary: Int { get }
    /// The next commit must carry a primary buffer (it sets the mode).
    var needsPrimary: Bool { get }
    /// The first vblank a commit made now can go up on, as the display's
    /// last flips predict it; nil where there is no vblank to wait for.
    func nextVblank(after now: HostTime) -> HostTime?

    /// Which layers get a hardware plane of their own: rectangles in
    /// stacking order, bottom first (`composedOnly`: those that must be
    /// composed in software; `needsAlpha`: those whose pixels carry alpha);
    /// the answer maps their indices to plane ids. Only what TEST_ONLY
    /// commits accept.
    func assignPlanes(_ rects: [PixelRect], composedOnly: [Bool], needsAlpha: [Bool]) -> [Int: UInt32]
    /// A buffer for one layer's pictures: scan-out memory for a plane
    /// (ARGB8888 with `alpha`, else XRGB8888), else memory the owner composes from.
    func makeBuffer(width: Int, height: Int, forPlane: Bool, alpha: Bool) throws -> any ComposedBuffer
    /// Shows `primary` (an index into `primary`, nil: unchanged) and the
    /// plane layers' buffers (`planes`: all of them, `changed`: those that
    /// differ from the last commit; a plane missing from `planes` is taken
    /// down) in one commit; returns when it is on screen.
    func commit(primary: Int?, planes: [PlaneContent], changed: Set<UInt32>) throws -> HostTime
    /// About once a second while nothing is committed, and before commits:
    /// follows the display going, coming back and changing modes.
    func maintain() -> HeadChange?
    /// Screen power (DPMS): off keeps everything, on shows it again.
    func setPower(_ on: Bool) throws
    /// Puts back what the screen showed before (the console). Once, at the end.
    func close()
}
