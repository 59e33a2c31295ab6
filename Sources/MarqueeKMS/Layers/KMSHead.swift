import CDRM
import CMarqueeShims
import Glibc
import MarqueeCore

/// A `LayeredDisplay`'s screen on a KMS card: one connector, its CRTC and
/// mode, the primary plane (which carries the composed layers and the
/// background) and the overlay planes layers may have. A connector that is
/// not there, or not connected, at the start is waited for (one line) and
/// set up when it comes; one that goes and comes back gets its mode again.
///
/// Threading: the display's thread only (`DisplayHead`).
final class KMSHead: DisplayHead {
    let device: DRMDevice
    /// Shared with the other heads on the card: its master, CRTCs and flip events.
    private let card: KMSCard
    private let options: KMSOptions
    private let clock: any HostClock
    /// What this head's flips are committed with: the card writes their time in.
    private let flipSlot: UnsafeMutablePointer<Int64>
    private(set) var screen: KMSScreen?
    private(set) var primaryEpoch = 0
    /// The primary buffer on screen.
    private var shownPrimary: Int?
    private var needsModeset = true
    private var powerOn = true
    /// When the last flip went up, which predicts the next vblanks.
    private var lastFlip: HostTime?
    /// The last reason there is no screen, said once.
    private var waitingFor: String?

    static let flipTimeout = Duration.milliseconds(200)

    init(options: KMSOptions, clock: any HostClock) throws(KMSError) {
        self.options = options
        self.clock = clock
        card = try KMSCard.choose(options)
        device = card.device
        flipSlot = .allocate(capacity: 1)
        flipSlot.initialize(to: -1)
        connect()
    }

    deinit { flipSlot.deallocate() }

    var name: String { screen?.connector.name ?? options.connector ?? "display" }
    var screenSize: PixelSize? { screen.map { PixelSize(width: $0.mode.width, height: $0.mode.height) } }
    var refreshInterval: Duration { .nanoseconds(Int64(1e9 / max(screen?.mode.refreshRate ?? 60, 1))) }
    var primary: [any ComposedBuffer] { screen?.primary ?? [] }
    var nextPrimary: Int { ((shownPrimary ?? -1) + 1) % max(1, primary.count) }
    var needsPrimary: Bool { needsModeset }

    var summary: String {
        guard let screen else { return "\(name) on \(device.path): waiting for it" }
        let overlays = screen.overlays.isEmpty ? "no overlay planes" : "overlay planes \(screen.overlays.map { "\($0.id)" }.joined(separator: ", "))"
        return "\(screen.connector.name) \(screen.mode) on CRTC \(screen.crtc), primary plane \(screen.primaryPlane?.plane ?? 0), \(overlays)"
            + (screen.atomic == nil ? ", legacy modesetting" : "")
    }

    /// Sets the screen up when the connector is there and connected; one
    /// line the first time it is not.
    private func connect() {
        do throws(KMSError) {
            let inventory = try DisplayInventory(device: device)
            let names = inventory.connectors.map { "\($0.name)\($0.isConnected ? "" : " (disconnected)")" }.joined(separator: ", ")
            let chosen = if let name = options.connector {
                inventory.connectors.first { $0.name == name }
            } else {
                inventory.connectors.first { $0.isConnected && !card.isDriven($0.name) }
            }
            let reason: String
            if let connector = chosen, connector.isConnected {
                screen = try KMSScreen(card: card, inventory: inventory, connector: connector, options: options)
                primaryEpoch += 1
                shownPrimary = nil
                needsModeset = true
                waitingFor = nil
                return
            } else if let connector = chosen {
                reason = "\(connector.name) is not connected"
            } else if let name = options.connector {
                reason = "no connector '\(name)' (have: \(names))"
            } else {
                reason = "no connected display that another layout does not drive (have: \(names))"
            }
            if waitingFor != reason { options.onDisplayEvent?("\(device.path): \(reason); waiting for it (the other displays and sound play meanwhile)") }
            waitingFor = reason
        } catch {
            let reason = "\(error)"
            if waitingFor != reason { options.onDisplayEvent?("\(reason); trying again every second") }
            waitingFor = reason
        }
    }

    func maintain() -> HeadChange? {
        guard let screen else {
            connect()
            guard self.screen != nil else { return nil }
            options.onDisplayEvent?("display \(name) connected: \(summary)")
            return .remade
        }
        guard let change = screen.watch.poll(at: clock.now()) else { return nil }
        return follow(change)
    }

    /// The display gone (one line; nothing is committed meanwhile), back (its
    /// mode set again, the same one where it still offers it), or its link
    /// gone bad (retrained by a modeset).
    private func follow(_ change: ConnectorWatch.Change) -> HeadChange? {
        guard let screen else { return nil }
        switch change {
        case .disconnected:
            options.onDisplayEvent?("display \(screen.connector.name) disconnected; the other displays play on, its layout comes back with it")
            return nil
        case .linkBroken:
            needsModeset = true
            options.onDisplayEvent?("display \(screen.connector.name): link status bad; setting \(screen.mode) again")
            return .remade
        case .reconnected(let modes):
            needsModeset = true
            if !modes.contains(where: { $0.hasTimings(of: screen.mode) }), let chosen = options.mode.choose(from: modes, frameRate: options.frameRate) {
                do throws(KMSError) {
                    try screen.change(to: chosen)
                    primaryEpoch += 1
                    shownPrimary = nil
                } catch {
                    options.onDisplayEvent?("display \(screen.connector.name): \(error)")
                }
            }
            options.onDisplayEvent?("display \(screen.connector.name) is back: \(screen.mode) set again")
            return .remade
        }
    }

    func assignPlanes(_ rects: [PixelRect], composedOnly: [Bool], needsAlpha: [Bool]) -> [Int: UInt32] {
        guard let screen, screen.atomic != nil else { return [:] }
        // `[display] plane` narrows what layers may have: none ("primary": all composed) or the one named.
        let usable: [UInt32] = switch options.plane {
        case .auto, .overlay: screen.overlays.map(\.id)
        case .primary: []
        case .id(let id): screen.overlays.map(\.id).filter { $0 == id }
        }
        var assignment = LayerPlanes.assign(rects, composedOnly: composedOnly, needsAlpha: needsAlpha, planes: usable,
                                            alphaPlanes: screen.alphaOverlays)
        // The driver decides: what it refuses goes back to software, lowest layer first.
        while !assignment.isEmpty,
              !screen.accepts(assignment.map { (plane: $0.value, rect: rects[$0.key], alpha: needsAlpha[$0.key]) }) {
            assignment.removeValue(forKey: assignment.keys.min()!)
        }
        return assignment
    }

    func makeBuffer(width: Int, height: Int, forPlane: Bool, alpha: Bool) throws -> any ComposedBuffer {
        forPlane ? try DumbBuffer(device: device, width: width, height: height,
                                  fourcc: alpha ? marquee_drm_format_argb8888() : marquee_drm_format_xrgb8888())
            : MemoryBuffer(width: width, height: height)
    }

    func nextVblank(after now: HostTime) -> HostTime? {
        guard let lastFlip, screen != nil else { return nil }
        let period = refreshInterval.nanoseconds
        return lastFlip + .nanoseconds(max(1, ((now - lastFlip).nanoseconds + period - 1) / period) * period)
    }

    func commit(primary index: Int?, planes: [PlaneContent], changed: Set<UInt32>) throws -> HostTime {
        if let screen, let change = screen.watch.poll(at: clock.now()) { _ = follow(change) }
        guard let screen, screen.watch.isConnected, powerOn else { return clock.now() }
        let primaryIndex = index ?? shownPrimary ?? nextPrimary
        guard needsModeset else {
            card.expectFlip(flipSlot)
            try screen.flip(primary: index.map { screen.primary[$0] }, planes: planes, changed: changed, userData: UnsafeMutableRawPointer(flipSlot))
            if let index { shownPrimary = index }
            let shown = try card.waitForFlip(flipSlot, timeout: Self.flipTimeout, clock: clock)
            lastFlip = shown
            return shown ?? clock.now()
        }
        try screen.setMode(primary: screen.primary[primaryIndex], planes: planes)
        shownPrimary = primaryIndex
        needsModeset = false
        return clock.now()
    }

    func setPower(_ on: Bool) throws {
        guard on != powerOn else { return }
        powerOn = on
        guard let screen else { return }
        if on {
            needsModeset = true
            if screen.atomic == nil { try screen.setDPMS(DRM_MODE_DPMS_ON) }
        } else {
            try screen.powerOff()
        }
    }

    func close() {
        guard let screen else { return }
        if !powerOn, screen.atomic == nil { try? screen.setDPMS(DRM_MODE_DPMS_ON) }
        screen.restore()
    }
}
