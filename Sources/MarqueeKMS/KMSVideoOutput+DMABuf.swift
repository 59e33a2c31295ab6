import CMarqueeShims
import Glibc
import MarqueeCore

/// Zero copy: a hardware decoder's surface, exported as dmabufs, imported
/// as a framebuffer and put on the video plane, which scales it.
extension KMSVideoOutput {
    /// Only a plane that scales can show a surface at the video's own size;
    /// it must take the surface's format with its modifier, unrotated.
    public func canScanOut(_ frame: VideoFrame, dmabuf: DMABufDescriptor) -> Bool {
        guard usesAtomic, capabilities.strategy == .scaled, (options.rotation.map { Orientation(rotation: $0) } ?? frame.orientation).isUpright,
              let layer = Self.composedLayer(dmabuf), let modifier = dmabuf.objects.first?.modifier,
              dmabuf.objects.allSatisfy({ $0.modifier == modifier }), plane.supports(layer.format) else { return false }
        // A plane without IN_FORMATS takes linear buffers only.
        guard let modifiers = plane.modifiers[fourccName(layer.format)] else { return modifier == marquee_drm_format_mod_linear() }
        return modifiers.contains(modifier)
    }

    /// Shows a frame `canScanOut` accepted. Its framebuffer, and the frame
    /// (so the decoder's surface), stay until a later flip has replaced it.
    public func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime {
        guard let storage = frame.storage as? any DMABufStorage, canScanOut(frame, dmabuf: storage.dmabuf) else {
            throw KMSError(call: "present", code: EINVAL, device: device.path, detail: "KMS output takes software frames through nextTarget")
        }
        let framebuffer = try importFramebuffer(storage.dmabuf)
        let placement = Placement.fit(width: frame.width, height: frame.height, sampleAspect: frame.sampleAspect,
                                      screenWidth: mode.width, screenHeight: mode.height, gravity: options.gravity)
        let geometry = ScanoutGeometry(strategy: .scaled, width: frame.width, height: frame.height, placement: placement,
                                       screenWidth: mode.width, screenHeight: mode.height)
        // The surface holds the decoder's values: the plane reads them as tagged.
        yuvColour = ColourDescription(range: frame.colour.effectiveRange,
                                      matrix: frame.colour.effectiveMatrix(width: frame.width, height: frame.height))
        clock.sleep(until: target)
        let shown = try show(framebuffer.framebuffer, geometry)
        // The flip is done: only this framebuffer is scanned out now.
        importedOnScreen = (framebuffer, frame)
        return shown
    }

    /// The descriptor's fds stay the frame's: the framebuffer gets its own copies.
    private func importFramebuffer(_ dmabuf: DMABufDescriptor) throws(KMSError) -> PrimeFramebuffer {
        var copies: [Int32] = []
        for object in dmabuf.objects {
            let copy = fcntl(object.fd, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else {
                let code = errno
                copies.forEach { close($0) }
                throw KMSError(call: "fcntl(F_DUPFD_CLOEXEC)", code: code, device: device.path)
            }
            copies.append(copy)
        }
        guard let layer = Self.composedLayer(dmabuf) else {
            copies.forEach { close($0) }
            throw KMSError(call: "import", code: EINVAL, device: device.path, detail: "dmabuf layers \(dmabuf.layers.map { fourccName($0.format) })")
        }
        let planes = layer.planes.map { PrimeFramebuffer.Plane(fd: copies[$0.object], offset: UInt32($0.offset), pitch: UInt32($0.pitch)) }
        return try PrimeFramebuffer(device: device, width: dmabuf.width, height: dmabuf.height, fourcc: layer.format,
                                    modifier: dmabuf.objects[0].modifier, planes: planes)
    }

    /// The picture as one layer. VA-API drivers export NV12 as separate
    /// layers (libav asks for them): an R8 luma layer and a GR88 chroma one
    /// (R16 and GR1616 for P010), which one two-plane framebuffer shows.
    static func composedLayer(_ dmabuf: DMABufDescriptor) -> DMABufDescriptor.Layer? {
        if dmabuf.layers.count == 1 { return dmabuf.layers[0] }
        guard dmabuf.layers.count == 2 else { return nil }
        let formats = (fourccName(dmabuf.layers[0].format), fourccName(dmabuf.layers[1].format))
        let composed: UInt32
        switch formats {
        case ("R8  ", "GR88"): composed = marquee_drm_format_nv12()
        case ("R16 ", "GR32"): composed = marquee_drm_format_p010()
        default: return nil
        }
        return DMABufDescriptor.Layer(format: composed, planes: dmabuf.layers[0].planes + dmabuf.layers[1].planes)
    }
}
