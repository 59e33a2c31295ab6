import CDRM
import Glibc
import MarqueeCore

/// A display's connection as the kernel last saw it: a TV switched off and
/// on again, a cable pulled, a link that lost its training.
/// `drmModeGetConnectorCurrent` reads what the kernel knows without probing
/// the hardware, so polling it once a second costs nothing.
final class ConnectorWatch {
    enum Change: Equatable {
        case disconnected
        /// Connected again, offering these modes.
        case reconnected([DisplayMode])
        /// Still connected, but the driver says the link needs a new modeset (link-status BAD).
        case linkBroken
    }

    private let device: DRMDevice
    private let connector: UInt32
    private(set) var isConnected = true
    private var lastPoll: HostTime?

    static let interval = Duration.seconds(1)

    init(device: DRMDevice, connector: UInt32) {
        self.device = device
        self.connector = connector
    }

    /// What changed since the last look, at most once per `interval`.
    func poll(at now: HostTime) -> Change? {
        if let lastPoll, now - lastPoll < Self.interval { return nil }
        lastPoll = now
        guard let info = drmModeGetConnectorCurrent(device.fd, connector) else { return nil }
        defer { drmModeFreeConnector(info) }
        let connected = info.pointee.connection == DRM_MODE_CONNECTED
        defer { isConnected = connected }
        switch (isConnected, connected) {
        case (true, false): return .disconnected
        case (false, true): return .reconnected((0..<Int(info.pointee.count_modes)).map { DisplayMode(info.pointee.modes[$0]) })
        case (true, true):
            let properties = try? PropertySet(device: device, object: connector, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))
            let bad = properties?["link-status"]?.enumValues["Bad"]
            return bad != nil && properties?["link-status"]?.value == bad ? .linkBroken : nil
        case (false, false): return nil
        }
    }
}
