import CDRM
import CMarqueeShims
import Glibc

/// A framebuffer over memory that arrives as dmabuf file descriptors (a
/// hardware decoder's surface, exported as DRM PRIME): each plane's fd,
/// offset and pitch, and the layout modifier. Owns the imported GEM handles'
/// framebuffer and the fds it was given.
public final class PrimeFramebuffer {
    public struct Plane: Sendable {
        public let fd: Int32
        public let offset: UInt32
        public let pitch: UInt32

        public init(fd: Int32, offset: UInt32, pitch: UInt32) {
            self.fd = fd
            self.offset = offset
            self.pitch = pitch
        }
    }

    public let framebuffer: UInt32
    private let device: DRMDevice
    private let descriptors: [Int32]

    /// Imports `planes` (taking ownership of their fds) as a `width` x `height`
    /// framebuffer of `fourcc` with `modifier` (DRM_FORMAT_MOD_LINEAR for dumb buffers).
    /// - Parameter closesHandles: the GEM handles the import makes are this
    ///   framebuffer's alone (memory from another device): close them once the
    ///   framebuffer holds the buffers. False when the dmabuf is this device's
    ///   own buffer, whose handle the import hands back and its owner still uses.
    public init(device: DRMDevice, width: Int, height: Int, fourcc: UInt32, modifier: UInt64, planes: [Plane],
                closesHandles: Bool = true) throws(KMSError) {
        self.device = device
        descriptors = Array(Set(planes.map(\.fd)))
        var handles: [UInt32] = [0, 0, 0, 0], pitches: [UInt32] = [0, 0, 0, 0], offsets: [UInt32] = [0, 0, 0, 0]
        var modifiers: [UInt64] = [0, 0, 0, 0]
        var framebuffer: UInt32 = 0
        do throws(KMSError) {
            for (index, plane) in planes.prefix(4).enumerated() {
                try checkDRM(drmPrimeFDToHandle(device.fd, plane.fd, &handles[index]), "drmPrimeFDToHandle", device: device.path)
                pitches[index] = plane.pitch
                offsets[index] = plane.offset
                modifiers[index] = modifier
            }
            // Drivers without modifier support (virtio-gpu) take only implicit
            // layouts: linear is what they assume, so say nothing then.
            let implicit = modifier == marquee_drm_format_mod_invalid()
                || (modifier == marquee_drm_format_mod_linear() && !device.supportsModifiers)
            let flags = implicit ? 0 : UInt32(DRM_MODE_FB_MODIFIERS)
            try checkDRM(drmModeAddFB2WithModifiers(device.fd, UInt32(width), UInt32(height), fourcc, &handles, &pitches,
                                                    &offsets, &modifiers, &framebuffer, flags),
                         "drmModeAddFB2WithModifiers", device: device.path)
        } catch {
            if closesHandles { Self.closeHandles(handles, on: device) }
            descriptors.forEach { close($0) }
            throw error
        }
        if closesHandles { Self.closeHandles(handles, on: device) }
        self.framebuffer = framebuffer
    }

    deinit {
        drmModeRmFB(device.fd, framebuffer)
        descriptors.forEach { close($0) }
    }

    /// Every plane of one buffer shares a handle: close each once.
    private static func closeHandles(_ handles: [UInt32], on device: DRMDevice) {
        for handle in Set(handles) where handle != 0 { _ = drmCloseBufferHandle(device.fd, handle) }
    }
}

extension DumbBuffer {
    /// Exports this buffer as a dmabuf and imports it back as a framebuffer:
    /// the path a decoder's PRIME surface takes, exercised without a decoder.
    func primeFramebuffer() throws(KMSError) -> PrimeFramebuffer {
        var fd: Int32 = -1
        try checkDRM(drmPrimeHandleToFD(device.fd, handle, UInt32(DRM_CLOEXEC) | UInt32(O_RDWR), &fd), "drmPrimeHandleToFD", device: device.path)
        let isNV12 = fourcc == marquee_drm_format_nv12()
        var planes = [PrimeFramebuffer.Plane(fd: fd, offset: 0, pitch: UInt32(self.planes[0].bytesPerRow))]
        if isNV12 {
            planes.append(PrimeFramebuffer.Plane(fd: fd, offset: UInt32(self.planes[0].bytesPerRow * height),
                                                 pitch: UInt32(self.planes[1].bytesPerRow)))
        }
        return try PrimeFramebuffer(device: device, width: width, height: height, fourcc: fourcc,
                                    modifier: marquee_drm_format_mod_linear(), planes: planes, closesHandles: false)
    }
}
