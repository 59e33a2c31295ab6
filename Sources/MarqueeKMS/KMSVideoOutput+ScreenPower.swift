import CDRM
import Glibc
import MarqueeCore

/// Screen power: the monitor sleeps while the CRTC is off. Atomic: the
/// CRTC's ACTIVE property 0 with its MODE_ID and planes kept (DPMS off, as
/// the kernel documents ACTIVE: user space need not take the planes down,
/// and the helpers skip planes of an inactive CRTC); legacy: the
/// connector's DPMS property, which the kernel routes to the same ACTIVE.
extension KMSVideoOutput: ScreenPowerOutput {
    public var isScreenOn: Bool { screenOn }

    /// Off commits at once; on sets the mode again with the picture last
    /// shown (the next frame does where none was, or the display is gone).
    /// - Throws: `KMSError` naming the call (`drmModeAtomicCommit`,
    ///   `drmModeConnectorSetProperty(DPMS)`, `drmModeSetCrtc`) and device.
    public func setScreenPower(_ on: Bool) throws(KMSError) {
        guard on != screenOn else { return }
        screenOn = on
        if on { try powerOn() } else { try powerOff() }
    }

    /// A blocking commit without a page-flip event: the kernel refuses an
    /// event from a CRTC that goes off (no vblank would send it). TEST_ONLY
    /// first, as every modeset here, so a refusal leaves the screen as it was.
    private func powerOff() throws(KMSError) {
        guard let atomic else {
            try setDPMS(DRM_MODE_DPMS_OFF)
            return
        }
        for flags in [DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET, DRM_MODE_ATOMIC_ALLOW_MODESET] {
            let request = try AtomicRequest(device: device)
            try request.set(crtc, atomic.crtcProperties, "ACTIVE", 0)
            try request.commit(flags: flags)
        }
    }

    /// The presenter does not call `maintain` while the screen is off, so
    /// the connector is looked at here first: a display that went, came
    /// back or changed modes meanwhile gets the mode `follow` chose.
    private func powerOn() throws(KMSError) {
        if let change = connectorWatch.poll(at: clock.now()) { try follow(change) }
        needsModeset = true
        guard connectorWatch.isConnected else { return }
        if atomic == nil { try setDPMS(DRM_MODE_DPMS_ON) }
        guard let onScreen else { return }
        try setMode(showing: onScreen.framebuffer, onScreen.geometry)
        needsModeset = false
    }

    /// The legacy path's switch: the connector's DPMS property.
    func setDPMS(_ state: Int32) throws(KMSError) {
        let properties = try PropertySet(device: device, object: connector.id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        let dpms = try properties.id("DPMS", device: device)
        try checkDRM(drmModeConnectorSetProperty(device.fd, connector.id, dpms, UInt64(state)),
                     "drmModeConnectorSetProperty(DPMS)", device: device.path)
    }
}
