import MarqueeFFmpeg

/// Writes presented frames to disk instead of a screen: as numbered PNG files
/// (`DIR/frame-000001.png`, ... in presentation order), or, when the path ends
/// in `.y4m`, as one YUV4MPEG2 stream of 8-bit 4:2:0 pictures that ffmpeg and
/// most players read.
///
/// Pictures are written as a screen shows them: stretched by their pixel
/// aspect and turned (and mirrored) by their orientation. The stream's size
/// is the first frame's; later frames of another size are scaled to it,
/// since YUV4MPEG2 cannot change size. The stream is limited range
/// (`XCOLORRANGE=LIMITED`), in the source's matrix.
///
/// Threading: the presenter thread only (see `VideoOutput`).
public final class FileVideoOutput: VideoOutput {
    private enum Sink {
        case pngDirectory(String, PNGWriter)
        case y4m(OutputFile)
    }

    private let sink: Sink
    private let clock: any HostClock
    private let frameRate: Rational
    private let converter = PixelConverter()
    /// Picture size of the YUV4MPEG2 stream, fixed by the first frame.
    private var streamSize: (width: Int, height: Int)?
    /// Frames written so far; the next PNG is numbered one more.
    public private(set) var presentedFrames = 0

    /// - Parameters:
    ///   - path: a `.y4m` file (created or truncated), or else a directory for
    ///     PNG files (created if missing; its parent must exist).
    ///   - clock: `present` waits on it until each frame's target time.
    ///   - frameRate: the rate written into the YUV4MPEG2 header, in frames per second.
    /// - Throws: `OutputFileError` when the file or directory cannot be created,
    ///   `FFmpegError` when the PNG encoder cannot be set up.
    public init(path: String, clock: any HostClock, frameRate: Rational = Rational(25, 1)) throws {
        self.clock = clock
        self.frameRate = frameRate
        if path.hasSuffix(".y4m") {
            sink = .y4m(try OutputFile(creating: path))
        } else {
            try OutputFile.makeDirectory(path)
            sink = .pngDirectory(path, try PNGWriter())
        }
    }

    /// YUV4MPEG2 takes planar 4:2:0; a PNG is RGB, and any software format converts to it.
    public var acceptedFormats: [PixelFormat] {
        switch sink {
        case .y4m: [.yuv420p]
        case .pngDirectory: [.rgb24, .xrgb8888, .yuv420p, .nv12, .yuv420p10, .p010]
        }
    }

    /// Files have no vblank.
    public var refreshInterval: Duration? { nil }

    /// Sleeps on the clock until `target`, writes `frame` and returns `target`.
    /// - Throws: `OutputFileError` or `FFmpegError` naming the failed call and the file.
    public func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime {
        clock.sleep(until: target)
        switch sink {
        case .pngDirectory(let directory, let writer):
            let path = "\(directory)/frame-\(Self.sixDigits(presentedFrames + 1)).png"
            try writer.write(try converter.displayed(frame, as: .rgb24), to: path)
        case .y4m(let file):
            try writeY4M(frame, to: file)
        }
        presentedFrames += 1
        return target
    }

    /// Every write has reached the file when `present` returns.
    public func flush() throws {}

    /// Writes the stream header before the first picture, then one FRAME chunk:
    /// the Y, U and V planes row by row, without the decoder's row padding.
    private func writeY4M(_ frame: VideoFrame, to file: OutputFile) throws {
        let limited = ColourDescription(range: .limited, matrix: frame.colour.effectiveMatrix(width: frame.width, height: frame.height))
        let shown = try converter.displayed(frame, as: .yuv420p, colour: limited)
        let size = streamSize ?? (shown.width, shown.height)
        if streamSize == nil {
            // C420jpeg: 4:2:0 with chroma centred between luma samples, as MPEG decoders output it.
            let header = "YUV4MPEG2 W\(size.width) H\(size.height) F\(frameRate.numerator):\(frameRate.denominator) Ip A1:1 C420jpeg"
                + " XCOLORRANGE=LIMITED\n"
            try file.append(Array(header.utf8))
            streamSize = size
        }
        let picture = try converter.convert(shown, to: .yuv420p, width: size.width, height: size.height)
        let chromaWidth = (size.width + 1) / 2
        var chunk = Array("FRAME\n".utf8)
        chunk.reserveCapacity(chunk.count + size.width * size.height + 2 * chromaWidth * picture.planes[1].rows)
        // The planes point into `picture`'s storage: keep it alive while copying.
        withExtendedLifetime(picture) {
            for (plane, rowBytes) in zip(picture.planes, [size.width, chromaWidth, chromaWidth]) {
                for row in 0..<plane.rows {
                    chunk += UnsafeRawBufferPointer(start: plane.base + row * plane.bytesPerRow, count: rowBytes)
                }
            }
        }
        try file.append(chunk)
    }

    private static func sixDigits(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
