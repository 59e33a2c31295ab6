import MarqueeCore

/// A buffer the composer draws into: a dumb buffer on a card, memory on the host.
protocol ComposedBuffer: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var isNV12: Bool { get }
    /// Paints the whole buffer one colour, 0xRRGGBB.
    func fill(rgb: UInt32)
    /// Paints `rect` one colour (an NV12 buffer is repainted whole).
    func fill(_ rect: PixelRect, rgb: UInt32)
    /// The planes of the `rect` sub-picture, for drawing only inside it.
    func planes(inside rect: PixelRect) -> [MutableImagePlane]
}

/// Puts a decoded picture into a scan-out buffer as the screen shows it:
/// placed by gravity and pixel aspect, turned and mirrored by its
/// orientation (in software: no board driver has a rotation property to
/// test against), borders in the background colour. `KMSVideoOutput` and
/// `MemoryDisplay` both draw through it, so what a host test composes is
/// what a plane scans out.
///
/// Not thread-safe: the presenter thread only, like the outputs that own it.
final class ScreenComposer {
    struct Settings: Equatable {
        var gravity: VideoGravity
        /// Clockwise degrees that override the frame's own orientation.
        var rotation: Int?
        var background: UInt32
    }

    /// Where one picture goes and how it is turned.
    struct Layout {
        let geometry: ScanoutGeometry
        let orientation: Orientation
    }

    let settings: Settings
    /// The picture as decoded, drawn here first when it must be turned.
    private var scratch: UnsafeMutableRawPointer?
    private var scratchSize = 0
    /// The turn `finish` owes: the scratch picture's size and layout.
    private var pendingTurn: (orientation: Orientation, width: Int, height: Int, planes: [MutableImagePlane])?
    private(set) var layout: Layout?

    init(settings: Settings) {
        self.settings = settings
    }

    deinit { scratch?.deallocate() }

    /// Where `frame` goes on a `screenWidth` x `screenHeight` screen through a plane of `strategy`.
    func layout(for frame: VideoFrame, strategy: ScanoutStrategy, screenWidth: Int, screenHeight: Int) -> Layout {
        let orientation = settings.rotation.map { Orientation(rotation: $0) } ?? frame.orientation
        let (width, height) = orientation.swapsAxes ? (frame.height, frame.width) : (frame.width, frame.height)
        let aspect = orientation.swapsAxes ? 1 / frame.sampleAspect : frame.sampleAspect
        let placement = Placement.fit(width: width, height: height, sampleAspect: aspect,
                                      screenWidth: screenWidth, screenHeight: screenHeight, gravity: settings.gravity)
        let geometry = ScanoutGeometry(strategy: strategy, width: width, height: height, placement: placement,
                                       screenWidth: screenWidth, screenHeight: screenHeight)
        let layout = Layout(geometry: geometry, orientation: orientation)
        self.layout = layout
        return layout
    }

    /// Where the presenter converts `frame` to: the buffer's picture rectangle,
    /// or scratch memory when the picture must be turned (`finish` turns it
    /// into the buffer). `drawn` is the rectangle last drawn in this buffer:
    /// borders are painted only when it moves.
    func target(for frame: VideoFrame, layout: Layout, buffer: any ComposedBuffer, index: Int,
                drawn: inout PixelRect?, format: PixelFormat, colour: ColourDescription?) -> RenderTarget {
        let draw = layout.geometry.drawRect
        if drawn != draw {
            if draw.width < buffer.width || draw.height < buffer.height { buffer.fill(rgb: settings.background) }
            drawn = draw
        }
        let orientation = layout.orientation
        guard !orientation.isUpright else {
            pendingTurn = nil
            let crop = layout.geometry.pictureCrop.map { ($0.x, $0.y, $0.width, $0.height) }
            return RenderTarget(buffer: index, planes: buffer.planes(inside: draw), format: format,
                                width: draw.width, height: draw.height, crop: crop, colour: colour)
        }
        let (width, height) = orientation.swapsAxes ? (draw.height, draw.width) : (draw.width, draw.height)
        let planes = scratchPlanes(width: width, height: height, nv12: buffer.isNV12)
        pendingTurn = (orientation, width, height, planes)
        let crop = layout.geometry.pictureCrop.map {
            let source = orientation.sourceRect(of: $0, width: frame.width, height: frame.height)
            return (source.x, source.y, source.width, source.height)
        }
        return RenderTarget(buffer: index, planes: planes, format: format, width: width, height: height,
                            crop: crop, colour: colour)
    }

    /// Turns a picture drawn into scratch memory into `buffer`, and repaints
    /// the border strip libswscale may have written over.
    func finish(into buffer: any ComposedBuffer) {
        guard let layout else { return }
        let draw = layout.geometry.drawRect
        if let turn = pendingTurn {
            let targets = buffer.planes(inside: draw)
            for (index, (source, target)) in zip(turn.planes, targets).enumerated() {
                // NV12's UV plane: half the size, two bytes a pixel.
                let chroma = index > 0
                PlaneTransform.apply(turn.orientation, bytesPerPixel: buffer.isNV12 ? (chroma ? 2 : 1) : 4,
                                     width: chroma ? (turn.width + 1) / 2 : turn.width,
                                     height: chroma ? (turn.height + 1) / 2 : turn.height,
                                     from: source.base, sourceStride: source.bytesPerRow, into: target)
            }
        }
        // libswscale writes whole SIMD blocks, up to 32 pixels past the end of a
        // row when the stride allows: put the border back right of the picture.
        if draw.x + draw.width < buffer.width, !buffer.isNV12 {
            buffer.fill(PixelRect(x: draw.x + draw.width, y: draw.y, width: 32, height: draw.height), rgb: settings.background)
        }
    }

    private func scratchPlanes(width: Int, height: Int, nv12: Bool) -> [MutableImagePlane] {
        let lumaBytes = width * height * (nv12 ? 1 : 4)
        let chromaStride = (width + 1) / 2 * 2
        let bytes = lumaBytes + (nv12 ? chromaStride * ((height + 1) / 2) : 0)
        if bytes > scratchSize {
            scratch?.deallocate()
            scratch = .allocate(byteCount: bytes, alignment: 64)
            scratchSize = bytes
        }
        let base = scratch!
        guard nv12 else { return [MutableImagePlane(base: base, bytesPerRow: width * 4, rows: height)] }
        return [MutableImagePlane(base: base, bytesPerRow: width, rows: height),
                MutableImagePlane(base: base + lumaBytes, bytesPerRow: chromaStride, rows: (height + 1) / 2)]
    }
}
