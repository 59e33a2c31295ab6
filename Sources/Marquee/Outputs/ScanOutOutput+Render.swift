import MarqueeFFmpeg

extension ScanOutOutput {
    /// Converts `picture` (in CPU memory) into the output's next render
    /// target, the part the output crops for its gravity only, and presents
    /// it at `time`: how every software frame reaches a display, for the
    /// presenter and for `ScreenCapture` alike.
    /// - Returns: when it became visible, as the output says.
    /// - Throws: the output's or the converter's error.
    /// - Parameter over: draws over the converted picture in the target (captions) before it is presented.
    func render(_ picture: VideoFrame, with converter: PixelConverter, at time: HostTime,
                over: (RenderTarget) -> Void = { _ in }) throws -> HostTime {
        let rendered = try nextTarget(for: picture)
        let source = rendered.crop.flatMap { picture.cropped(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        try converter.convert(source ?? picture, into: rendered.planes, format: rendered.format,
                              width: rendered.width, height: rendered.height, colour: rendered.colour)
        over(rendered)
        return try present(rendered, of: picture, at: time)
    }
}
