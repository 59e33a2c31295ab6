import CDRM
import Glibc

/// A KMS object's properties by name, as mpv's drm_atomic does: every
/// property Marquee sets is looked up by name, and a missing one is an error
/// that says which.
struct PropertySet {
    struct Property {
        let id: UInt32
        let value: UInt64
        let isImmutable: Bool
        /// Enum/bitmask properties: value names to values (rotation, type).
        let enumValues: [String: UInt64]
        let blobValue: UInt32?
    }

    let properties: [String: Property]

    init(device: DRMDevice, object: UInt32, type: UInt32) throws(KMSError) {
        guard let list = drmModeObjectGetProperties(device.fd, object, type) else {
            throw KMSError(call: "drmModeObjectGetProperties", code: errno, device: device.path)
        }
        defer { drmModeFreeObjectProperties(list) }
        var properties: [String: Property] = [:]
        for index in 0..<Int(list.pointee.count_props) {
            guard let property = drmModeGetProperty(device.fd, list.pointee.props[index]) else { continue }
            defer { drmModeFreeProperty(property) }
            let name = withUnsafeBytes(of: property.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var enums: [String: UInt64] = [:]
            for enumIndex in 0..<Int(property.pointee.count_enums) {
                let entry = property.pointee.enums[enumIndex]
                let enumName = withUnsafeBytes(of: entry.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                enums[enumName] = entry.value
            }
            let value = list.pointee.prop_values[index]
            let isBlob = property.pointee.flags & UInt32(DRM_MODE_PROP_BLOB) != 0
            properties[name] = Property(id: property.pointee.prop_id, value: value,
                                        isImmutable: property.pointee.flags & UInt32(DRM_MODE_PROP_IMMUTABLE) != 0,
                                        enumValues: enums, blobValue: isBlob ? UInt32(truncatingIfNeeded: value) : nil)
        }
        self.properties = properties
    }

    subscript(name: String) -> Property? { properties[name] }

    func id(_ name: String, device: DRMDevice) throws(KMSError) -> UInt32 {
        guard let property = properties[name] else {
            throw KMSError(call: "property lookup", code: ENOENT, device: device.path, detail: "no property '\(name)'")
        }
        guard !property.isImmutable else {
            throw KMSError(call: "property lookup", code: EPERM, device: device.path, detail: "property '\(name)' is immutable")
        }
        return property.id
    }
}
