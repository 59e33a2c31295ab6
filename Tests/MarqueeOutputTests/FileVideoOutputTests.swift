import Foundation
import Marquee
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

@Suite struct FileVideoOutputTests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    @Test func writesNumberedPNGsInPresentationOrder() throws {
        let frames = try decodedVideoFrames(try Fixtures.path(Fixtures.indexed()))
        let directory = "\(scratch.path)/frames"
        let clock = VirtualClock()
        let output = try FileVideoOutput(path: directory, clock: clock)
        #expect(output.refreshInterval == nil)
        #expect(output.acceptedFormats.first == .rgb24)
        for (number, frame) in frames.prefix(5).enumerated() {
            let target = HostTime.ms(Int64(number) * 40)
            #expect(try output.present(frame, at: target) == target)
            #expect(clock.now() == target, "waited for the target time")
        }
        #expect(output.presentedFrames == 5)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == (1...5).map { "frame-00000\($0).png" })
        let third = "\(directory)/frame-000003.png"
        #expect(try probeStream(third, "codec_name,width,height") == ["codec_name": "png", "width": "320", "height": "240"])
        let reread = try #require(try decodedVideoFrames(third).first)
        #expect(frameIndex(of: reread) == 2)
    }

    @Test func writesAY4MStreamFFprobeReads() throws {
        let frames = try decodedVideoFrames(try Fixtures.path(Fixtures.indexed()))
        let path = "\(scratch.path)/out.y4m"
        let output = try FileVideoOutput(path: path, clock: VirtualClock(), frameRate: Rational(25, 1))
        #expect(output.acceptedFormats == [.yuv420p])
        for (number, frame) in frames.enumerated() {
            _ = try output.present(frame, at: .ms(Int64(number) * 40))
        }
        try output.flush()
        let stream = try probeStream(path, "codec_name,width,height,pix_fmt,r_frame_rate,nb_read_frames", countFrames: true)
        #expect(stream == ["codec_name": "rawvideo", "width": "320", "height": "240", "pix_fmt": "yuv420p",
                           "r_frame_rate": "25/1", "nb_read_frames": "50"])
        let header = "YUV4MPEG2 W320 H240 F25:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n".utf8.count
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == header + 50 * ("FRAME\n".utf8.count + 320 * 240 * 3 / 2), "rows are copied without padding")
        #expect(try decodedVideoFrames(path).map(frameIndex(of:)) == Array(0..<50))
    }

    @Test func y4mTakesOddSizesAndScalesLaterFramesToTheFirst() throws {
        let wide = try decodedVideoFrames(try Fixtures.path(Fixtures.indexed(seconds: 1, size: "854x356")))
        let converter = PixelConverter()
        let odd = try (0..<3).map { try converter.convert(wide[$0], to: .rgb24, width: 853, height: 355) }
        let path = "\(scratch.path)/odd.y4m"
        let output = try FileVideoOutput(path: path, clock: VirtualClock(), frameRate: Rational(30000, 1001))
        for (number, frame) in (odd + [wide[3], wide[4]]).enumerated() {
            _ = try output.present(frame, at: .ms(Int64(number) * 33))
        }
        let stream = try probeStream(path, "width,height,r_frame_rate,nb_read_frames", countFrames: true)
        #expect(stream == ["width": "853", "height": "355", "r_frame_rate": "30000/1001", "nb_read_frames": "5"])
        let header = "YUV4MPEG2 W853 H355 F30000:1001 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n".utf8.count
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == header + 5 * (6 + 853 * 355 + 2 * 427 * 178))
        #expect(try decodedVideoFrames(path).map(frameIndex(of:)) == [0, 1, 2, 3, 4])
    }

    @Test func anUnwritablePathNamesTheCall() {
        let error = #expect(throws: OutputFileError.self) {
            try FileVideoOutput(path: "\(scratch.path)/missing/out.y4m", clock: VirtualClock())
        }
        #expect(error?.call == "open")
        let directoryError = #expect(throws: OutputFileError.self) {
            try FileVideoOutput(path: "\(scratch.path)/missing/frames", clock: VirtualClock())
        }
        #expect(directoryError?.call == "mkdir" && directoryError?.path == "\(scratch.path)/missing/frames")
    }
}
