import CDRM

/// What the CRTC showed before Marquee took it (usually the console), put back
/// when the output goes away so a terminal reappears after exit.
final class SavedCRTC {
    private let device: DRMDevice
    private let crtc: UnsafeMutablePointer<drmModeCrtc>
    private let connector: UInt32

    init?(device: DRMDevice, crtc: UInt32, connector: UInt32) {
        guard let saved = drmModeGetCrtc(device.fd, crtc) else { return nil }
        self.device = device
        self.crtc = saved
        self.connector = connector
    }

    /// Best effort: there is nobody left to report a failure to at exit.
    func restore() {
        var connector = connector
        var mode = crtc.pointee.mode
        if crtc.pointee.mode_valid != 0, crtc.pointee.buffer_id != 0 {
            _ = drmModeSetCrtc(device.fd, crtc.pointee.crtc_id, crtc.pointee.buffer_id, crtc.pointee.x, crtc.pointee.y,
                               &connector, 1, &mode)
        } else {
            _ = drmModeSetCrtc(device.fd, crtc.pointee.crtc_id, 0, 0, 0, nil, 0, nil)
        }
    }

    deinit { drmModeFreeCrtc(crtc) }
}
