import CLibass
import Glibc
import MarqueeCore
import MarqueeFFmpeg

/// libass, as mpv uses it for its OSD: a library and a renderer (fonts
/// found by fontconfig, shaped by HarfBuzz), and ASS scripts drawn by it
/// into premultiplied ARGB8888. Owns both and frees them.
///
/// Not thread-safe: libass is not; each overlay has its own, used on its
/// display's thread.
final class ASSRenderer {
    private let library: OpaquePointer
    private let renderer: OpaquePointer

    init() throws(OverlayError) {
        if let failure = marquee_libass_load() { throw OverlayError(call: "libass", detail: String(cString: failure)) }
        guard let library = ass_library_init() else { throw OverlayError(call: "ass_library_init", detail: "out of memory") }
        // libass's messages are for debugging its scripts; ours are generated
        // (without a callback of its own it writes them all on stderr).
        ass_set_message_cb(library, { _, _, _, _ in }, nil)
        guard let renderer = ass_renderer_init(library) else {
            ass_library_done(library)
            throw OverlayError(call: "ass_renderer_init", detail: "no font renderer (FreeType)")
        }
        self.library = library
        self.renderer = renderer
        ass_set_fonts(renderer, nil, "sans-serif", Int32(ASS_FONTPROVIDER_FONTCONFIG.rawValue), nil, 1)
    }

    deinit {
        ass_renderer_done(renderer)
        ass_library_done(library)
    }

    /// The bounding box of what `script` draws at `milliseconds` on a `size` frame; nil when nothing.
    func extent(of script: String, size: PixelSize, at milliseconds: Int64 = 0) throws(OverlayError) -> PixelRect? {
        var extent: PixelRect?
        try render(script, size: size, at: milliseconds) { image in
            let rect = PixelRect(x: Int(image.dst_x), y: Int(image.dst_y), width: Int(image.w), height: Int(image.h))
            extent = extent.map { $0.union(rect) } ?? rect
        }
        return extent
    }

    /// Draws `script` at `milliseconds` into `plane` (`size` pixels), over what it holds.
    func draw(_ script: String, into plane: MutableImagePlane, size: PixelSize, offset: (x: Int, y: Int) = (0, 0),
              at milliseconds: Int64 = 0) throws(OverlayError) {
        try render(script, size: size, at: milliseconds) { image in
            Self.blend(image, into: plane, size: size, offset: offset)
        }
    }

    private func render(_ script: String, size: PixelSize, at milliseconds: Int64, _ each: (ASS_Image) -> Void) throws(OverlayError) {
        var bytes = Array(script.utf8CString)
        guard let track = bytes.withUnsafeMutableBufferPointer({ ass_read_memory(library, $0.baseAddress, $0.count - 1, nil) }) else {
            throw OverlayError(call: "ass_read_memory", detail: "libass could not read the script it was given")
        }
        defer { ass_free_track(track) }
        ass_set_storage_size(renderer, Int32(size.width), Int32(size.height))
        render(track, size: size, at: milliseconds, each)
    }

    private func render(_ track: UnsafeMutablePointer<ASS_Track>, size: PixelSize, at milliseconds: Int64, _ each: (ASS_Image) -> Void) {
        ass_set_frame_size(renderer, Int32(size.width), Int32(size.height))
        var image = ass_render_frame(renderer, track, milliseconds, nil)
        while let current = image {
            each(current.pointee)
            image = current.pointee.next
        }
    }

    /// A track libass keeps from frame to frame (captions), made as
    /// ffmpeg's `subtitles` filter makes it: the decoder's header, then
    /// each cue as a chunk.
    func makeTrack(_ script: SubtitleScript) throws(OverlayError) -> ASSTrack {
        guard let track = ass_new_track(library) else { throw OverlayError(call: "ass_new_track", detail: "out of memory") }
        var header = Array(script.header.utf8CString)
        header.withUnsafeMutableBufferPointer { ass_process_codec_private(track, $0.baseAddress, Int32($0.count - 1)) }
        for cue in script.cues {
            var line = Array(cue.line.utf8CString)
            line.withUnsafeMutableBufferPointer { ass_process_chunk(track, $0.baseAddress, Int32($0.count - 1), cue.start, cue.duration) }
        }
        return ASSTrack(track, library: self)
    }

    /// Draws what `track` shows at `milliseconds` into `plane` (`size` pixels: the picture), over what it holds.
    func draw(_ track: ASSTrack, into plane: MutableImagePlane, size: PixelSize, at milliseconds: Int64) {
        render(track.pointer, size: size, at: milliseconds) { image in
            Self.blend(image, into: plane, size: size, offset: (0, 0))
        }
    }

    /// One libass image (an alpha mask and one colour, RGBA with A as
    /// transparency) blended into premultiplied ARGB.
    private static func blend(_ image: ASS_Image, into plane: MutableImagePlane, size: PixelSize, offset: (x: Int, y: Int)) {
        let opacity = 255 - (image.color & 0xff)
        let (red, green, blue) = (image.color >> 24, image.color >> 16 & 0xff, image.color >> 8 & 0xff)
        let left = max(0, -(Int(image.dst_x) + offset.x)), top = max(0, -(Int(image.dst_y) + offset.y))
        let right = min(Int(image.w), size.width - Int(image.dst_x) - offset.x)
        let bottom = min(Int(image.h), size.height - Int(image.dst_y) - offset.y)
        guard right > left, bottom > top, opacity > 0 else { return }
        for row in top..<bottom {
            let mask = image.bitmap + row * Int(image.stride)
            let pixels = (plane.base + (Int(image.dst_y) + offset.y + row) * plane.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                + Int(image.dst_x) + offset.x
            for column in left..<right {
                let coverage = UInt32(mask[column]) * opacity / 255
                if coverage == 0 { continue }
                let top = coverage << 24 | (red * coverage / 255) << 16 | (green * coverage / 255) << 8 | blue * coverage / 255
                pixels[column] = PremultipliedARGB.over(top, pixels[column])
            }
        }
    }
}

/// A libass track, owned and freed; drawn by the renderer whose library made it.
final class ASSTrack {
    let pointer: UnsafeMutablePointer<ASS_Track>
    /// Kept alive while the track is: libass frees a track through its library.
    private let library: ASSRenderer

    init(_ pointer: UnsafeMutablePointer<ASS_Track>, library: ASSRenderer) {
        self.pointer = pointer
        self.library = library
    }

    deinit { ass_free_track(pointer) }
}

extension PixelRect {
    func union(_ other: PixelRect) -> PixelRect {
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
