import Glibc

extension ConnectorInfo {
    /// The mode `options` asks for on this connector and the CRTC that
    /// drives it (the one it is on now, else the first that can).
    func modeAndCRTC(_ options: KMSOptions, device: DRMDevice) throws(KMSError) -> (mode: DisplayMode, crtc: UInt32) {
        let mode = try mode(options, device: device)
        guard let crtc = crtcChoices.first else {
            throw KMSError(call: "crtc", code: ENODEV, device: device.path, detail: "no CRTC can drive \(name)")
        }
        return (mode, crtc)
    }

    /// The mode `options` asks for on this connector.
    func mode(_ options: KMSOptions, device: DRMDevice) throws(KMSError) -> DisplayMode {
        guard let mode = options.mode.choose(from: modes, frameRate: options.frameRate) else {
            throw KMSError(call: "mode", code: EINVAL, device: device.path,
                           detail: "\(name) has no mode \(options.mode) (has: \(modes.map(\.description).joined(separator: ", ")))")
        }
        return mode
    }

    /// The CRTCs that can drive this connector, the one it is on now first.
    var crtcChoices: [UInt32] {
        (currentCRTC.map { [$0] } ?? []) + possibleCRTCs.filter { $0 != currentCRTC }
    }
}
