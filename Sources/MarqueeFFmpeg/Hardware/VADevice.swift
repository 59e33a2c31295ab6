import CVA
import FoundationEssentials
import Glibc

/// An initialised libva display on a render node, for asking the driver what
/// it decodes. Owns the node's file descriptor and the display; deinit
/// terminates the display, then closes the fd.
///
/// Not thread-safe: one thread asks at a time.
public final class VADevice {
    public let path: String
    private let fd: Int32
    private let display: VADisplay
    /// The driver's name and version, e.g. "Intel iHD driver ... 23.1.1".
    public let vendor: String
    public let version: (major: Int, minor: Int)

    /// Opens `path` and initialises libva on it, with libva's own messages
    /// off (its errors come back as statuses, reported in one line).
    /// - Throws: `.cannotOpen` or `.va` naming the node and the failed call.
    public init(path: String) throws(HardwareDecodingError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(device: path, errno: errno) }
        guard let display = vaGetDisplayDRM(fd) else {
            close(fd)
            throw .va(device: path, call: "vaGetDisplayDRM", status: VA_STATUS_ERROR_INVALID_DISPLAY)
        }
        vaSetErrorCallback(display, nil, nil)
        vaSetInfoCallback(display, nil, nil)
        var major: Int32 = 0
        var minor: Int32 = 0
        let status = vaInitialize(display, &major, &minor)
        guard status == VA_STATUS_SUCCESS else {
            vaTerminate(display)
            close(fd)
            throw .va(device: path, call: "vaInitialize", status: status)
        }
        self.fd = fd
        self.display = display
        version = (Int(major), Int(minor))
        vendor = vaQueryVendorString(display).map { String(cString: $0) } ?? "unknown driver"
    }

    deinit {
        vaTerminate(display)
        close(fd)
    }

    /// A VA profile the driver knows, with its entry points (VLD is decoding).
    public struct ProfileSupport: Sendable {
        public let profile: VAProfile
        public let entrypoints: [VAEntrypoint]

        public var name: String { String(cString: vaProfileStr(profile)) }
        public var entrypointNames: [String] { entrypoints.map { String(cString: vaEntrypointStr($0)) } }
        public var decodes: Bool { entrypoints.contains(VAEntrypointVLD) }
    }

    /// Every profile and its entry points (vaQueryConfigProfiles, vaQueryConfigEntrypoints).
    public func profiles() throws(HardwareDecodingError) -> [ProfileSupport] {
        var profiles = [VAProfile](repeating: VAProfileNone, count: Int(max(vaMaxNumProfiles(display), 0)))
        var profileCount: Int32 = 0
        try checkVA(vaQueryConfigProfiles(display, &profiles, &profileCount), "vaQueryConfigProfiles", device: path)
        var entrypoints = [VAEntrypoint](repeating: VAEntrypoint(0), count: Int(max(vaMaxNumEntrypoints(display), 0)))
        return try profiles.prefix(Int(profileCount)).map { (profile) throws(HardwareDecodingError) in
            var count: Int32 = 0
            try checkVA(vaQueryConfigEntrypoints(display, profile, &entrypoints, &count), "vaQueryConfigEntrypoints", device: path)
            return ProfileSupport(profile: profile, entrypoints: Array(entrypoints.prefix(Int(count))))
        }
    }

    /// The largest picture the decoder for `profile` takes, from a temporary
    /// VLD config's surface attributes; nil when the driver does not say.
    public func maximumSize(decoding profile: VAProfile) throws(HardwareDecodingError) -> (width: Int, height: Int)? {
        var config = VAConfigID(VA_INVALID_ID)
        try checkVA(vaCreateConfig(display, profile, VAEntrypointVLD, nil, 0, &config), "vaCreateConfig", device: path)
        defer { vaDestroyConfig(display, config) }
        var count: UInt32 = 0
        try checkVA(vaQuerySurfaceAttributes(display, config, nil, &count), "vaQuerySurfaceAttributes", device: path)
        var attributes = [VASurfaceAttrib](repeating: VASurfaceAttrib(), count: Int(count))
        try checkVA(vaQuerySurfaceAttributes(display, config, &attributes, &count), "vaQuerySurfaceAttributes", device: path)
        let width = attributes.first { $0.type == VASurfaceAttribMaxWidth }.map { Int($0.value.value.i) }
        let height = attributes.first { $0.type == VASurfaceAttribMaxHeight }.map { Int($0.value.value.i) }
        guard let width, let height else { return nil }
        return (width, height)
    }
}
