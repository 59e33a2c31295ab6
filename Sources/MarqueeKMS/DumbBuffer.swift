import CDRM
import CMarqueeShims
import Glibc
import MarqueeCore

/// A CPU-writable scanout buffer: a dumb buffer, mapped, with a framebuffer
/// on it. Owns all three and releases them in reverse order.
final class DumbBuffer: ComposedBuffer {
    let device: DRMDevice
    let width: Int
    let height: Int
    let fourcc: UInt32
    let framebuffer: UInt32
    /// Planes inside the one allocation (NV12: Y then UV).
    let planes: [MutableImagePlane]
    let handle: UInt32
    private let mapping: UnsafeMutableRawPointer
    private let size: Int

    /// - Parameter fourcc: XRGB8888 or NV12.
    init(device: DRMDevice, width: Int, height: Int, fourcc: UInt32) throws(KMSError) {
        self.device = device
        self.width = width
        self.height = height
        self.fourcc = fourcc
        let isNV12 = fourcc == marquee_drm_format_nv12()
        // NV12 is allocated as an 8-bit buffer 1.5x as tall: Y rows then UV rows.
        let (bpp, rows) = isNV12 ? (UInt32(8), UInt32(height + (height + 1) / 2)) : (UInt32(32), UInt32(height))
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        try checkDRM(marquee_drm_create_dumb(device.fd, UInt32(width), rows, bpp, &handle, &pitch, &size),
                     "DRM_IOCTL_MODE_CREATE_DUMB", device: device.path)
        var offset: UInt64 = 0
        var framebuffer: UInt32 = 0
        var mapping: UnsafeMutableRawPointer?
        do throws(KMSError) {
            try checkDRM(marquee_drm_map_dumb(device.fd, handle, &offset), "DRM_IOCTL_MODE_MAP_DUMB", device: device.path)
            let mapped = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, device.fd, off_t(offset))
            guard let mapped, mapped != MAP_FAILED else { throw KMSError(call: "mmap", code: errno, device: device.path) }
            mapping = mapped
            let uvOffset = UInt32(pitch) * UInt32(height)
            var handles: [UInt32] = [handle, isNV12 ? handle : 0, 0, 0]
            var pitches: [UInt32] = [pitch, isNV12 ? pitch : 0, 0, 0]
            var offsets: [UInt32] = [0, isNV12 ? uvOffset : 0, 0, 0]
            try checkDRM(drmModeAddFB2(device.fd, UInt32(width), UInt32(height), fourcc, &handles, &pitches, &offsets, &framebuffer, 0),
                         "drmModeAddFB2", device: device.path)
        } catch {
            if let mapping { munmap(mapping, Int(size)) }
            _ = marquee_drm_destroy_dumb(device.fd, handle)
            throw error
        }
        self.handle = handle
        self.size = Int(size)
        self.mapping = mapping!
        self.framebuffer = framebuffer
        let rowBytes = Int(pitch)
        planes = isNV12
            ? [MutableImagePlane(base: mapping!, bytesPerRow: rowBytes, rows: height),
               MutableImagePlane(base: mapping! + rowBytes * height, bytesPerRow: rowBytes, rows: (height + 1) / 2)]
            : [MutableImagePlane(base: mapping!, bytesPerRow: rowBytes, rows: height)]
    }

    deinit {
        drmModeRmFB(device.fd, framebuffer)
        munmap(mapping, size)
        _ = marquee_drm_destroy_dumb(device.fd, handle)
    }

    /// Paints the whole buffer one colour, 0xRRGGBB (the border colour around the picture).
    func fill(rgb: UInt32) {
        let (red, green, blue) = (UInt8(rgb >> 16 & 0xff), UInt8(rgb >> 8 & 0xff), UInt8(rgb & 0xff))
        if fourcc == marquee_drm_format_nv12() {
            // BT.601 limited range, which is what the converter writes for SD/HD alike on this path.
            let (r, g, b) = (Double(red), Double(green), Double(blue))
            let y = Self.byte(16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256)
            let cb = Self.byte(128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256)
            let cr = Self.byte(128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256)
            memset(planes[0].base, Int32(y), planes[0].bytesPerRow * planes[0].rows)
            let uv = planes[1].base.assumingMemoryBound(to: UInt8.self)
            for index in stride(from: 0, to: planes[1].bytesPerRow * planes[1].rows, by: 2) {
                uv[index] = cb
                uv[index + 1] = cr
            }
        } else {
            let pixel = rgb & 0xffffff
            for row in 0..<height {
                let line = (planes[0].base + row * planes[0].bytesPerRow).assumingMemoryBound(to: UInt32.self)
                line.update(repeating: pixel, count: width)
            }
        }
    }

    /// Paints `rect` one colour, 0xRRGGBB (XRGB8888 buffers; NV12 ones are repainted whole).
    func fill(_ rect: PixelRect, rgb: UInt32) {
        guard fourcc != marquee_drm_format_nv12() else { return fill(rgb: rgb) }
        guard let area = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height)) else { return }
        Blend.fill(base: planes[0].base, bytesPerRow: planes[0].bytesPerRow, area, pixel: rgb & 0xffffff)
    }

    var isNV12: Bool { fourcc == marquee_drm_format_nv12() }

    private static func byte(_ value: Double) -> UInt8 { UInt8(clamping: Int(value.rounded())) }

    /// The planes of the `rect` sub-picture, for drawing only inside it.
    func planes(inside rect: PixelRect) -> [MutableImagePlane] {
        if fourcc == marquee_drm_format_nv12() {
            let x = rect.x & ~1, y = rect.y & ~1
            return [MutableImagePlane(base: planes[0].base + y * planes[0].bytesPerRow + x, bytesPerRow: planes[0].bytesPerRow, rows: rect.height),
                    MutableImagePlane(base: planes[1].base + (y / 2) * planes[1].bytesPerRow + x, bytesPerRow: planes[1].bytesPerRow,
                                      rows: (rect.height + 1) / 2)]
        }
        return [MutableImagePlane(base: planes[0].base + rect.y * planes[0].bytesPerRow + rect.x * 4,
                                  bytesPerRow: planes[0].bytesPerRow, rows: rect.height)]
    }
}
