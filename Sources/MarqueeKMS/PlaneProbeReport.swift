import Glibc

/// What each plane can do for video on a card's first connected display,
/// found by TEST_ONLY commits (nothing reaches the screen), for
/// `marquee displays`. Needs DRM master: not while another program drives the card.
public struct PlaneProbeReport: Sendable, Encodable {
    public let connector: String
    public let crtc: UInt32
    public let mode: String
    public let planes: [PlaneCapabilities]
    /// The plane `--plane auto` would put the video on.
    public let videoPlane: UInt32?

    public init(device: DRMDevice, inventory: DisplayInventory) throws(KMSError) {
        guard device.supportsAtomic else {
            throw KMSError(call: "probe", code: ENOTSUP, device: device.path, detail: "no atomic modesetting: only the primary plane is used")
        }
        guard let connector = inventory.connectors.first(where: \.isConnected),
              let crtc = connector.currentCRTC ?? connector.possibleCRTCs.first,
              let mode = ModeRequest.preferred.choose(from: connector.modes, frameRate: nil) else {
            throw KMSError(call: "probe", code: ENODEV, device: device.path, detail: "no connected display to probe planes on")
        }
        try device.becomeMaster()
        let atomic = try AtomicObjects(device: device, connector: connector.id, crtc: crtc, mode: mode)
        let planes = inventory.planes.filter { $0.possibleCRTCs.contains(crtc) && ($0.kind == .primary || $0.kind == .overlay) }
        let prober = try PlaneProber(device: device, atomic: atomic, mode: mode, primary: planes.first { $0.kind == .primary })
        let found = try prober.capabilities(of: planes)
        self.connector = connector.name
        self.crtc = crtc
        self.mode = mode.description
        self.planes = found.map(\.capabilities)
        videoPlane = PlaneProber.best(of: found)?.plane.id
    }
}
