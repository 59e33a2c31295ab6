import MarqueeCore
import MarqueeFFmpeg

/// A picture over the video (`kind = "image"`: a logo): any still picture
/// libavformat reads, its alpha kept, decoded once when made and drawn at
/// its rectangle's size (whole, centred, aspect kept) when the display
/// places it; never again unless the rectangle changes.
///
/// Threading: `draw` on the display's thread only.
public final class ImageOverlay: OverlayContent, @unchecked Sendable {
    // @unchecked: the frame is immutable; the converter is the display thread's.
    private let picture: VideoFrame
    private let converter = PixelConverter()
    public let path: String

    /// - Throws: `OverlayError` naming the file and why it cannot be read.
    public init(path: String) throws(OverlayError) {
        self.path = path
        do {
            let demuxer = try Demuxer(source: path)
            guard let track = demuxer.media.preferredTrack(.video) else {
                throw OverlayError(call: path, detail: "not a picture (no video stream)")
            }
            demuxer.select(streams: [track.id])
            let decoder = try VideoDecoder(demuxer: demuxer, stream: track.id, threads: 1)
            var frames: [VideoFrame] = []
            while frames.isEmpty, let packet = try demuxer.read() {
                if packet.streamIndex == track.id { frames += try decoder.decode(packet) }
            }
            if frames.isEmpty { frames = try decoder.decode(nil) }
            guard let first = frames.first else { throw OverlayError(call: path, detail: "no picture in it") }
            // Converted once to the byte order it is drawn in, alpha straight (libswscale's).
            picture = try converter.convert(first, to: .other("bgra"))
        } catch let error as OverlayError {
            throw error
        } catch {
            throw OverlayError(call: path, detail: "\(error)")
        }
    }

    /// The picture's own size: an anchored image's rectangle.
    public var naturalSize: PixelSize { PixelSize(width: picture.width, height: picture.height) }

    public func draw(into plane: MutableImagePlane, size: PixelSize, at time: HostTime) -> HostTime? {
        let scale = min(Double(size.width) / Double(picture.width), Double(size.height) / Double(picture.height))
        let width = max(1, min(size.width, Int((Double(picture.width) * scale).rounded())))
        let height = max(1, min(size.height, Int((Double(picture.height) * scale).rounded())))
        let (x, y) = ((size.width - width) / 2, (size.height - height) / 2)
        let target = MutableImagePlane(base: plane.base + y * plane.bytesPerRow + x * 4, bytesPerRow: plane.bytesPerRow, rows: height)
        guard (try? converter.convert(picture, into: [target], format: .other("bgra"), width: width, height: height)) != nil else { return nil }
        // Premultiplied, as the display blends overlays.
        for row in 0..<height {
            let pixels = (target.base + row * target.bytesPerRow).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width {
                let pixel = pixels[column]
                pixels[column] = pixel & 0xff000000 | PremultipliedARGB.scaled(pixel & 0xffffff, by: pixel >> 24)
            }
        }
        return nil
    }
}
