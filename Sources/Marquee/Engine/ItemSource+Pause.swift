import MarqueeFFmpeg

extension ItemSource {
    /// The pause `between` asks for after this item's last pass, placed at
    /// the pass's end in its last segment: silence (so the audio clock, which
    /// times the next item, runs through it) and, for `.blank`, a picture of
    /// one colour. The presenter holds the last frame otherwise.
    func emitPause(_ between: PauseBetweenItems, audioFormat: AudioFormat?, serial: Int, emit: (Output) -> Void) {
        guard let segment = lastSegment, let end = passEndTime else { return }
        let seconds = between.seconds
        let itemTime = segment.itemTime(ofPts: end)
        let timeline = segment.timeline(ofPts: end)
        if case .blank(_, let rgb) = between, hasVideo {
            let picture = SolidColourFrame(rgb: rgb).frame(pts: end, duration: MediaTime(seconds: seconds, preferredTimescale: 1000))
            emit(.video(TimelineFrame(frame: picture, segment: segment, itemTime: itemTime, timeline: timeline,
                                      duration: seconds, serial: serial)))
        }
        if let audioFormat {
            emit(.audio(TimelineAudio(buffer: AudioBuffer(pts: end, format: audioFormat, bytes: []), segment: segment,
                                      timeline: timeline, serial: serial, silence: seconds)))
        }
    }
}

/// A small picture of one colour; outputs scale it like any frame, so with
/// the borders in the same colour the whole screen shows it.
final class SolidColourFrame: FrameStorage, @unchecked Sendable {
    // @unchecked: filled here, read-only afterwards.
    static let size = 16
    private let pixels: UnsafeMutablePointer<UInt32>

    init(rgb: UInt32) {
        pixels = .allocate(capacity: Self.size * Self.size)
        pixels.initialize(repeating: rgb & 0xffffff, count: Self.size * Self.size)
    }

    deinit { pixels.deallocate() }

    func frame(pts: MediaTime, duration: MediaTime) -> VideoFrame {
        VideoFrame(pts: pts, duration: duration, width: Self.size, height: Self.size, pixelFormat: .xrgb8888,
                   planes: [ImagePlane(base: UnsafeRawPointer(pixels), bytesPerRow: Self.size * 4, rows: Self.size)], storage: self)
    }
}
