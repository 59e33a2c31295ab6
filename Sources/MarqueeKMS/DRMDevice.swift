import CDRM
import Glibc

/// An open DRM card: owns the file descriptor. Sets the client caps Marquee
/// needs (universal planes, atomic where the driver has it) and becomes DRM
/// master, without which no mode can be set.
///
/// Not thread-safe: the presenter thread owns it (`marquee displays` owns its own).
public final class DRMDevice {
    public let path: String
    let fd: Int32
    /// The driver accepted the ATOMIC client cap (and the user did not force legacy).
    public let supportsAtomic: Bool

    public init(path: String, allowAtomic: Bool = true) throws(KMSError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw KMSError(call: "open", code: errno, device: path) }
        self.fd = fd
        do throws(KMSError) {
            try checkDRM(drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1), "drmSetClientCap(UNIVERSAL_PLANES)", device: path)
        } catch {
            close(fd)
            throw error
        }
        supportsAtomic = allowAtomic && drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
    }

    deinit { close(fd) }

    /// The driver accepts explicit format modifiers on framebuffers.
    public var supportsModifiers: Bool {
        var value: UInt64 = 0
        return drmGetCap(fd, UInt64(DRM_CAP_ADDFB2_MODIFIERS), &value) == 0 && value != 0
    }

    /// Takes DRM master (already ours if nobody else holds the card).
    public func becomeMaster() throws(KMSError) {
        if drmIsMaster(fd) != 0 { return }
        try checkDRM(drmSetMaster(fd), "drmSetMaster", device: path)
    }

    public var driverName: String {
        guard let version = drmGetVersion(fd) else { return "unknown" }
        defer { drmFreeVersion(version) }
        return String(cString: version.pointee.name)
    }

    /// The cards on this machine, /dev/dri/card0 first.
    public static func cards() -> [String] {
        guard let directory = opendir("/dev/dri") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("card") { names.append("/dev/dri/\(name)") }
        }
        return names.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
    }
}
