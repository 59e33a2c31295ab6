import Glibc

extension ConnectorInfo {
    /// The mode `options` asks for on this connector and the CRTC that
    /// drives it (the one it is on now, else the first that can).
    func modeAndCRTC(_ options: KMSOptions, device: DRMDevice) throws(KMSError) -> (mode: DisplayMode, crtc: UInt32) {
        guard let mode = options.mode.choose(from: modes, frameRate: options.frameRate) else {
            throw KMSError(call: "mode", code: EINVAL, device: device.path,
                           detail: "\(name) has no mode \(options.mode) (has: \(modes.map(\.description).joined(separator: ", ")))")
        }
        guard let crtc = currentCRTC ?? possibleCRTCs.first else {
            throw KMSError(call: "crtc", code: ENODEV, device: device.path, detail: "no CRTC can drive \(name)")
        }
        return (mode, crtc)
    }
}
