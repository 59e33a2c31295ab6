import CFFmpeg
import MarqueeCore

/// A decoded VA-API surface and its DRM PRIME mapping (the surface exported
/// as dmabufs). Owns one reference to each frame; deinit frees the mapping
/// (closing its fds) and then the surface, which goes back to the decoder's
/// pool. `VideoFrame`s carrying this storage keep the surface out of the
/// pool for as long as the display may still scan it out.
///
/// `@unchecked Sendable`: neither frame is written after init; libav's buffer
/// references are atomically counted, and only deinit frees them.
final class VASurfaceStorage: DMABufStorage, @unchecked Sendable {
    private let surface: UnsafeMutablePointer<AVFrame>
    private let mapped: UnsafeMutablePointer<AVFrame>
    let dmabuf: DMABufDescriptor

    /// References `source` (an AV_PIX_FMT_VAAPI frame) and maps it to
    /// AV_PIX_FMT_DRM_PRIME for reading.
    init(referencing source: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        guard let surface = av_frame_alloc() else { throw .outOfMemory("av_frame_alloc") }
        var doomedSurface: UnsafeMutablePointer<AVFrame>? = surface
        guard let mapped = av_frame_alloc() else {
            av_frame_free(&doomedSurface)
            throw .outOfMemory("av_frame_alloc")
        }
        var doomedMapped: UnsafeMutablePointer<AVFrame>? = mapped
        do throws(FFmpegError) {
            try check(av_frame_ref(surface, source), "av_frame_ref")
            mapped.pointee.format = AV_PIX_FMT_DRM_PRIME.rawValue
            try check(av_hwframe_map(mapped, surface, Int32(AV_HWFRAME_MAP_READ)), "av_hwframe_map")
        } catch {
            av_frame_free(&doomedMapped)
            av_frame_free(&doomedSurface)
            throw error
        }
        self.surface = surface
        self.mapped = mapped
        let descriptor = UnsafeRawPointer(mapped.pointee.data.0!).assumingMemoryBound(to: AVDRMFrameDescriptor.self)
        dmabuf = DMABufDescriptor(libav: descriptor.pointee, width: Int(surface.pointee.width), height: Int(surface.pointee.height))
    }

    deinit {
        var doomedMapped: UnsafeMutablePointer<AVFrame>? = mapped
        av_frame_free(&doomedMapped)
        var doomedSurface: UnsafeMutablePointer<AVFrame>? = surface
        av_frame_free(&doomedSurface)
    }

    /// A `VideoFrame` showing the mapping: no CPU planes, format "drm_prime".
    func videoFrame(pts: MediaTime, duration: MediaTime) -> VideoFrame {
        VideoFrame(pts: pts, duration: duration, width: dmabuf.width, height: dmabuf.height,
                   pixelFormat: .hardware("drm_prime"), planes: [], storage: self)
    }

    /// Copies the surface into CPU memory in its software format (NV12 or
    /// P010) with `av_hwframe_transfer_data`.
    func download(_ frame: VideoFrame) throws -> VideoFrame {
        guard let scratch = av_frame_alloc() else { throw FFmpegError.outOfMemory("av_frame_alloc") }
        defer {
            // The scratch frame only carries the buffers into the storage, which holds its own reference.
            var doomed: UnsafeMutablePointer<AVFrame>? = scratch
            av_frame_free(&doomed)
        }
        try check(av_hwframe_transfer_data(scratch, surface, 0), "av_hwframe_transfer_data")
        var copy = try AVFrameStorage(referencing: scratch).videoFrame(pts: frame.pts, duration: frame.duration)
        copy.orientation = frame.orientation
        copy.sampleAspect = frame.sampleAspect
        copy.colour = frame.colour
        return copy
    }
}

extension DMABufDescriptor {
    /// Copies libav's descriptor (fixed arrays of AV_DRM_MAX_PLANES) into Swift arrays.
    init(libav descriptor: AVDRMFrameDescriptor, width: Int, height: Int) {
        let objects = elements(of: descriptor.objects, as: AVDRMObjectDescriptor.self, count: Int(descriptor.nb_objects)).map {
            Object(fd: $0.fd, size: $0.size, modifier: $0.format_modifier)
        }
        let layers = elements(of: descriptor.layers, as: AVDRMLayerDescriptor.self, count: Int(descriptor.nb_layers)).map { layer in
            Layer(format: layer.format, planes: elements(of: layer.planes, as: AVDRMPlaneDescriptor.self, count: Int(layer.nb_planes)).map {
                Plane(object: Int($0.object_index), offset: $0.offset, pitch: $0.pitch)
            })
        }
        self.init(objects: objects, layers: layers, width: width, height: height)
    }
}

/// The first `count` elements of a C fixed-size array (imported as a tuple).
private func elements<Tuple, Element>(of tuple: Tuple, as type: Element.Type, count: Int) -> [Element] {
    withUnsafeBytes(of: tuple) { bytes in
        precondition(count >= 0 && count * MemoryLayout<Element>.stride <= bytes.count, "descriptor count out of range")
        return (0..<count).map { bytes.load(fromByteOffset: $0 * MemoryLayout<Element>.stride, as: Element.self) }
    }
}
