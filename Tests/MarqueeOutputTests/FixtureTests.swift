import Foundation
import Marquee
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// The `indexed` fixture carries what it promises, and `frameIndex` reads only bar codes.
@Suite struct FixtureTests {
    /// A 320x240 yuv420p frame: black picture, `bars` drawn as the bar code's blocks (white where set).
    func barCodeFrame(_ bars: Int, barLuma: UInt8 = 235) -> VideoFrame {
        let storage = OwnedPixels(bytes: 320 * 240 * 3 / 2)
        let luma = storage.base
        luma.initializeMemory(as: UInt8.self, repeating: 16, count: 320 * 240)
        (luma + 320 * 240).initializeMemory(as: UInt8.self, repeating: 128, count: 320 * 240 / 2)
        for bit in 0..<16 where bars & (1 << bit) != 0 {
            for row in 0..<16 { (luma + row * 320 + bit * 20).initializeMemory(as: UInt8.self, repeating: barLuma, count: 20) }
        }
        return VideoFrame(pts: .zero, duration: .zero, width: 320, height: 240, pixelFormat: .yuv420p,
                          planes: [ImagePlane(base: luma, bytesPerRow: 320, rows: 240),
                                   ImagePlane(base: luma + 320 * 240, bytesPerRow: 160, rows: 120),
                                   ImagePlane(base: luma + 320 * 240 * 5 / 4, bytesPerRow: 160, rows: 120)],
                          storage: storage)
    }

    @Test func readsAllSixteenBitsAndRefusesGrey() {
        #expect(frameIndex(of: barCodeFrame(0b1010_0101_1100_0011)) == 0b1010_0101_1100_0011)
        #expect(frameIndex(of: barCodeFrame(0xFFFF)) == 0xFFFF)
        #expect(frameIndex(of: barCodeFrame(0)) == 0)
        #expect(frameIndex(of: barCodeFrame(0b1, barLuma: 128)) == nil, "a grey block is not a bar")
        let surface = VideoFrame(pts: .zero, duration: .zero, width: 320, height: 240, pixelFormat: .hardware("vaapi"),
                                 planes: [], storage: OwnedPixels(bytes: 0))
        #expect(frameIndex(of: surface) == nil)
    }

    @Test func theFirstFrameOfEverySecondFlashes() throws {
        let frames = try decodedVideoFrames(try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 10)))
        #expect(frames.count == 20)
        #expect(frames.map(frameIndex(of:)) == Array(0..<20))
        // Sample points inside the box (the middle quarter of the picture).
        let points = [(90, 70), (160, 120), (230, 170), (90, 170), (230, 70)]
        for (index, frame) in frames.enumerated() {
            let plane = frame.planes[0]
            let levels = points.map { plane.base.load(fromByteOffset: $0.1 * plane.bytesPerRow + $0.0, as: UInt8.self) }
            if index % 10 == 0 {
                #expect(levels.allSatisfy { $0 >= 225 }, "frame \(index) should flash: \(levels)")
            } else {
                #expect(levels.contains { $0 < 225 }, "frame \(index) should not flash: \(levels)")
            }
        }
    }

    @Test func everySecondStartsWithALoudBeep() throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 3, audioCodec: "pcm_s16le"))
        #expect(path.hasSuffix(".mkv"))
        let demuxer = try Demuxer(source: path)
        let track = try #require(demuxer.media.preferredTrack(.audio))
        let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .float32)
        let decoder = try AudioDecoder(demuxer: demuxer, stream: track.id, output: format)
        var left: [Float] = []
        func take(_ buffers: [AudioBuffer]) {
            for buffer in buffers {
                buffer.bytes.withUnsafeBytes { raw in
                    let samples = raw.bindMemory(to: Float.self)
                    left += stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
                }
            }
        }
        while let packet = try demuxer.read() {
            if packet.streamIndex == track.id { take(try decoder.decode(packet)) }
        }
        take(try decoder.decode(nil))
        #expect(left.count == 144_000)
        func rms(_ from: Double, _ to: Double) -> Float {
            let window = left[Int(from * 48000)..<Int(to * 48000)]
            return (window.reduce(0) { $0 + $1 * $1 } / Float(window.count)).squareRoot()
        }
        for second in 0..<3 {
            let start = Double(second)
            let beep = rms(start + 0.005, start + 0.045), tone = rms(start + 0.2, start + 0.9)
            #expect(tone > 0.02 && tone < 0.05, "a quiet tone all along (second \(second): \(tone))")
            #expect(beep > 8 * tone, "second \(second): beep \(beep), tone \(tone)")
        }
    }
}

/// Memory a test fills by hand, as a synthetic frame's storage.
final class OwnedPixels: FrameStorage, @unchecked Sendable {
    // @unchecked: written only while the test builds the frame, read afterwards.
    let base: UnsafeMutableRawPointer
    init(bytes: Int) { base = .allocate(byteCount: max(bytes, 1), alignment: 64) }
    deinit { base.deallocate() }
}
