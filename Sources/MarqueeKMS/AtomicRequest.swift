import CDRM
import Glibc

/// One atomic commit being built; owns the libdrm request and frees it on
/// every path (the leak drm-howto's examples have on errors).
final class AtomicRequest {
    private let request: OpaquePointer
    private let device: DRMDevice

    init(device: DRMDevice) throws(KMSError) {
        guard let request = drmModeAtomicAlloc() else { throw KMSError(call: "drmModeAtomicAlloc", code: ENOMEM, device: device.path) }
        self.request = request
        self.device = device
    }

    deinit { drmModeAtomicFree(request) }

    func set(_ object: UInt32, _ properties: PropertySet, _ name: String, _ value: UInt64) throws(KMSError) {
        let id = try properties.id(name, device: device)
        try checkDRM(drmModeAtomicAddProperty(request, object, id, value), "drmModeAtomicAddProperty(\(name))", device: device.path)
    }

    /// Commits with `flags`; `userData` comes back in the page-flip event.
    func commit(flags: Int32, userData: UnsafeMutableRawPointer? = nil) throws(KMSError) {
        try checkDRM(drmModeAtomicCommit(device.fd, request, UInt32(flags), userData), "drmModeAtomicCommit", device: device.path)
    }
}

/// A mode blob for MODE_ID, destroyed with its owner.
final class ModeBlob {
    let id: UInt32
    private let device: DRMDevice

    init(device: DRMDevice, mode: DisplayMode) throws(KMSError) {
        var info = mode.modeInfo
        var id: UInt32 = 0
        try checkDRM(drmModeCreatePropertyBlob(device.fd, &info, MemoryLayout<drmModeModeInfo>.size, &id),
                     "drmModeCreatePropertyBlob", device: device.path)
        self.id = id
        self.device = device
    }

    deinit { drmModeDestroyPropertyBlob(device.fd, id) }
}
