import Glibc

/// A failed DRM/KMS call: which call, errno, and the device, e.g.
/// `/dev/dri/card0: drmModeAtomicCommit: Invalid argument`.
public struct KMSError: Error, Sendable, CustomStringConvertible {
    public let call: String
    /// errno (positive), or 0 when the failure was not an errno (nothing found).
    public let code: Int32
    public let device: String
    public let detail: String?
    /// No display is connected: on any card, or on the connector asked for
    /// (a TV that is off, a cable not in). `AwaitedDisplay` waits for one.
    public private(set) var isNoDisplay = false

    public init(call: String, code: Int32, device: String, detail: String? = nil) {
        self.call = call
        self.code = code
        self.device = device
        self.detail = detail
    }

    static func noDisplay(_ call: String, device: String, detail: String) -> KMSError {
        var error = KMSError(call: call, code: ENODEV, device: device, detail: detail)
        error.isNoDisplay = true
        return error
    }

    public var description: String {
        let reason = detail ?? String(cString: strerror(code))
        return "\(device): \(call): \(reason)"
    }
}

/// libdrm returns -1 with errno set, or -errno, depending on the call: both become a KMSError.
@discardableResult
func checkDRM(_ result: Int32, _ call: String, device: String) throws(KMSError) -> Int32 {
    guard result < 0 else { return result }
    throw KMSError(call: call, code: result == -1 ? errno : -result, device: device)
}
