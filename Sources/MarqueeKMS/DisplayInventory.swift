import CDRM
import Glibc

/// A display mode as the connector offers it.
public struct DisplayMode: Sendable, Codable, Hashable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// Refresh rate in Hz, from the pixel clock and totals (59.94, not 60).
    public let refreshRate: Double
    public let isPreferred: Bool
    public let name: String
    let raw: RawMode

    /// drmModeModeInfo's fields, kept to hand the exact mode back to the kernel.
    struct RawMode: Sendable, Codable, Hashable {
        let clock: UInt32
        let timings: [UInt16]  // hdisplay, hsync_start, hsync_end, htotal, hskew, vdisplay, vsync_start, vsync_end, vtotal, vscan
        let vrefresh: UInt32
        let flags: UInt32
        let type: UInt32
    }

    public var description: String { "\(width)x\(height)@\((refreshRate * 100).rounded() / 100)" }

    init(_ info: drmModeModeInfo) {
        width = Int(info.hdisplay)
        height = Int(info.vdisplay)
        let total = Double(info.htotal) * Double(info.vtotal)
        refreshRate = total > 0 ? Double(info.clock) * 1000 / total : Double(info.vrefresh)
        isPreferred = info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0
        name = withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        raw = RawMode(clock: info.clock,
                      timings: [info.hdisplay, info.hsync_start, info.hsync_end, info.htotal, info.hskew,
                                info.vdisplay, info.vsync_start, info.vsync_end, info.vtotal, info.vscan],
                      vrefresh: info.vrefresh, flags: info.flags, type: info.type)
    }

    /// The same signal (clock, timings, sync flags), whatever the kernel's
    /// type bits say (preferred, driver, user-defined change on a re-probe).
    func hasTimings(of other: DisplayMode) -> Bool {
        raw.clock == other.raw.clock && raw.timings == other.raw.timings && raw.flags == other.raw.flags
    }

    var modeInfo: drmModeModeInfo {
        var info = drmModeModeInfo()
        info.clock = raw.clock
        (info.hdisplay, info.hsync_start, info.hsync_end, info.htotal, info.hskew) = (raw.timings[0], raw.timings[1], raw.timings[2], raw.timings[3], raw.timings[4])
        (info.vdisplay, info.vsync_start, info.vsync_end, info.vtotal, info.vscan) = (raw.timings[5], raw.timings[6], raw.timings[7], raw.timings[8], raw.timings[9])
        info.vrefresh = raw.vrefresh
        info.flags = raw.flags
        info.type = raw.type
        withUnsafeMutableBytes(of: &info.name) { buffer in
            for (index, byte) in name.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        return info
    }

    private enum CodingKeys: String, CodingKey { case width, height, refreshRate, isPreferred, name }

    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "modes are read from the kernel"))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode((refreshRate * 100).rounded() / 100, forKey: .refreshRate)
        try container.encode(isPreferred, forKey: .isPreferred)
        try container.encode(name, forKey: .name)
    }
}

public struct ConnectorInfo: Sendable, Encodable {
    public let id: UInt32
    /// "HDMI-A-1", "Virtual-1": the type's name and its index, as the kernel names them.
    public let name: String
    public let isConnected: Bool
    public let modes: [DisplayMode]
    /// CRTCs that can drive this connector (through its encoders).
    public let possibleCRTCs: [UInt32]
    public let currentCRTC: UInt32?
}

public struct CRTCInfo: Sendable, Encodable {
    public let id: UInt32
    public let index: Int
    public let mode: DisplayMode?
    public let framebuffer: UInt32
}

public struct PlaneInfo: Sendable, Encodable {
    public enum Kind: String, Sendable, Encodable { case primary, overlay, cursor, unknown }
    public let id: UInt32
    public let kind: Kind
    /// Fourcc codes as text ("XR24", "NV12").
    public let formats: [String]
    /// Format -> modifiers from IN_FORMATS (empty when the plane has no such property: linear only).
    public let modifiers: [String: [UInt64]]
    public let possibleCRTCs: [UInt32]
    public let zpos: UInt64?
    /// Rotations the plane's "rotation" property offers ("rotate-0", "rotate-90", "reflect-x", ...).
    public let rotations: [String]
    public let hasAlpha: Bool
    let formatCodes: [UInt32]

    public func supports(_ fourcc: UInt32) -> Bool { formatCodes.contains(fourcc) }

    private enum CodingKeys: String, CodingKey { case id, kind, formats, modifiers, possibleCRTCs, zpos, rotations, hasAlpha }
}

/// Everything `drmModeGetResources` and the plane calls say about a card.
public struct DisplayInventory: Sendable, Encodable {
    public let device: String
    public let driver: String
    public let supportsAtomic: Bool
    public let connectors: [ConnectorInfo]
    public let crtcs: [CRTCInfo]
    public let planes: [PlaneInfo]
    /// What the planes can do for video, where someone probed them.
    public var probe: PlaneProbeReport?

    public init(device: DRMDevice) throws(KMSError) {
        self.device = device.path
        driver = device.driverName
        supportsAtomic = device.supportsAtomic
        guard let resources = drmModeGetResources(device.fd) else {
            throw KMSError(call: "drmModeGetResources", code: errno, device: device.path, detail: "not a modesetting device")
        }
        defer { drmModeFreeResources(resources) }
        let crtcIDs = (0..<Int(resources.pointee.count_crtcs)).map { resources.pointee.crtcs[$0] }
        crtcs = crtcIDs.enumerated().compactMap { index, id in
            guard let crtc = drmModeGetCrtc(device.fd, id) else { return nil }
            defer { drmModeFreeCrtc(crtc) }
            return CRTCInfo(id: id, index: index, mode: crtc.pointee.mode_valid != 0 ? DisplayMode(crtc.pointee.mode) : nil,
                            framebuffer: crtc.pointee.buffer_id)
        }
        connectors = (0..<Int(resources.pointee.count_connectors)).compactMap { index in
            Self.connector(device, resources.pointee.connectors[index], crtcIDs: crtcIDs)
        }
        planes = try Self.planes(device, crtcIDs: crtcIDs)
    }

    private static func connector(_ device: DRMDevice, _ id: UInt32, crtcIDs: [UInt32]) -> ConnectorInfo? {
        guard let connector = drmModeGetConnector(device.fd, id) else { return nil }
        defer { drmModeFreeConnector(connector) }
        let typeName = drmModeGetConnectorTypeName(connector.pointee.connector_type).map { String(cString: $0) } ?? "Unknown"
        var possible: Set<UInt32> = []
        for index in 0..<Int(connector.pointee.count_encoders) {
            guard let encoder = drmModeGetEncoder(device.fd, connector.pointee.encoders[index]) else { continue }
            defer { drmModeFreeEncoder(encoder) }
            for (bit, crtc) in crtcIDs.enumerated() where encoder.pointee.possible_crtcs & (1 << bit) != 0 { possible.insert(crtc) }
        }
        var current: UInt32?
        if connector.pointee.encoder_id != 0, let encoder = drmModeGetEncoder(device.fd, connector.pointee.encoder_id) {
            current = encoder.pointee.crtc_id == 0 ? nil : encoder.pointee.crtc_id
            drmModeFreeEncoder(encoder)
        }
        return ConnectorInfo(id: id, name: "\(typeName)-\(connector.pointee.connector_type_id)",
                             isConnected: connector.pointee.connection == DRM_MODE_CONNECTED,
                             modes: (0..<Int(connector.pointee.count_modes)).map { DisplayMode(connector.pointee.modes[$0]) },
                             possibleCRTCs: crtcIDs.filter(possible.contains), currentCRTC: current)
    }

    private static func planes(_ device: DRMDevice, crtcIDs: [UInt32]) throws(KMSError) -> [PlaneInfo] {
        guard let resources = drmModeGetPlaneResources(device.fd) else {
            throw KMSError(call: "drmModeGetPlaneResources", code: errno, device: device.path)
        }
        defer { drmModeFreePlaneResources(resources) }
        var planes: [PlaneInfo] = []
        for index in 0..<Int(resources.pointee.count_planes) {
            let id = resources.pointee.planes[index]
            guard let plane = drmModeGetPlane(device.fd, id) else { continue }
            defer { drmModeFreePlane(plane) }
            let properties = try PropertySet(device: device, object: id, type: UInt32(DRM_MODE_OBJECT_PLANE))
            let codes = (0..<Int(plane.pointee.count_formats)).map { plane.pointee.formats[$0] }
            let kind: PlaneInfo.Kind = switch properties["type"]?.value {
            case UInt64(DRM_PLANE_TYPE_PRIMARY): .primary
            case UInt64(DRM_PLANE_TYPE_OVERLAY): .overlay
            case UInt64(DRM_PLANE_TYPE_CURSOR): .cursor
            default: .unknown
            }
            planes.append(PlaneInfo(
                id: id, kind: kind, formats: codes.map(fourccName),
                modifiers: properties["IN_FORMATS"]?.blobValue.map { modifiers(device, blob: $0) } ?? [:],
                possibleCRTCs: crtcIDs.enumerated().filter { plane.pointee.possible_crtcs & (1 << $0.offset) != 0 }.map(\.element),
                zpos: properties["zpos"]?.value,
                rotations: properties["rotation"]?.enumValues.sorted { $0.value < $1.value }.map(\.key) ?? [],
                hasAlpha: properties["alpha"] != nil, formatCodes: codes))
        }
        return planes
    }

    /// Parses an IN_FORMATS blob (struct drm_format_modifier_blob).
    private static func modifiers(_ device: DRMDevice, blob id: UInt32) -> [String: [UInt64]] {
        guard let blob = drmModeGetPropertyBlob(device.fd, id) else { return [:] }
        defer { drmModeFreePropertyBlob(blob) }
        let raw = UnsafeRawBufferPointer(start: blob.pointee.data, count: Int(blob.pointee.length))
        guard raw.count >= 24 else { return [:] }
        let header = (0..<6).map { raw.load(fromByteOffset: $0 * 4, as: UInt32.self) }
        let (formatCount, formatsOffset, modifierCount, modifiersOffset) = (Int(header[2]), Int(header[3]), Int(header[4]), Int(header[5]))
        guard formatsOffset + formatCount * 4 <= raw.count, modifiersOffset + modifierCount * 24 <= raw.count else { return [:] }
        let formats = (0..<formatCount).map { raw.load(fromByteOffset: formatsOffset + $0 * 4, as: UInt32.self) }
        var result: [String: [UInt64]] = [:]
        for index in 0..<modifierCount {
            // struct drm_format_modifier { __u64 formats; __u32 offset; __u32 pad; __u64 modifier; }
            let base = modifiersOffset + index * 24
            let mask = raw.loadUnaligned(fromByteOffset: base, as: UInt64.self)
            let offset = Int(raw.loadUnaligned(fromByteOffset: base + 8, as: UInt32.self))
            let modifier = raw.loadUnaligned(fromByteOffset: base + 16, as: UInt64.self)
            for bit in 0..<64 where mask & (1 << UInt64(bit)) != 0 && offset + bit < formats.count {
                result[fourccName(formats[offset + bit]), default: []].append(modifier)
            }
        }
        return result
    }
}

/// "XR24" for DRM_FORMAT_XRGB8888: the fourcc's four characters.
public func fourccName(_ code: UInt32) -> String {
    String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> ($0 * 8)) }, as: UTF8.self)
}
