import Foundation
import Marquee
import MarqueeKMS
import MarqueeTestSupport
import Testing

/// Issue 15, interlaced files made by others (480i test patterns, MPEG-2,
/// pixel aspect 32:27): the first frame, shown paused, has no combing and is
/// ffmpeg's bwdif rendering of it. (The first: a seek into the MPEG-TS file
/// can land a GOP past where it was asked, libavformat's timestamp search.)
@Suite struct RealInterlacedFileTests {
    /// 853x480 on screen: the lines stay as they are, only the width is stretched.
    static let screen = (width: 854, height: 480)

    @Test(arguments: ["interlace/bt601-525_480_interlaced_tff.mkv", "interlace/bt601-525_480_interlaced_bff.ts"])
    func aFrameIsDeinterlacedAsFFmpegsBwdifDoesIt(_ file: String) async throws {
        let path = "\(SharedMedia.directory)/\(file)"
        let shown = try await PictureCapture.paused(path, at: 0, width: Self.screen.width, height: Self.screen.height)
        let media = try await Asset(source: path).load(.mediaDescription)
        let track = try #require(media.tracks.first(where: { $0.mediaType == .video })?.video)
        let sar = track.sampleAspectRatio?.doubleValue ?? 1
        let place = Placement.fit(width: track.width, height: track.height, sampleAspect: sar, screenWidth: Self.screen.width,
                                  screenHeight: Self.screen.height, gravity: .resizeAspect).destination
        let comb = PictureCapture.comb(PictureCapture.luma(shown.screen, screenWidth: Self.screen.width, rect: place))
        #expect(comb < 1, "\(file): combing metric \(comb)")
        #expect(shown.picture?.hasSuffix("bwdif frame") == true, "\(shown.picture ?? "nothing")")

        let placed = PictureCapture.placed(width: track.width, height: track.height, sampleAspect: sar, screen: Self.screen,
                                           range: "tv", matrix: "bt601")
        let right = try PictureCapture.ffmpeg(path, filters: ["bwdif=mode=send_frame:parity=auto"] + placed)
        let woven = try PictureCapture.ffmpeg(path, filters: placed)
        let wovenComb = PictureCapture.comb(PictureCapture.luma(woven, screenWidth: Self.screen.width, rect: place))
        let toRight = PictureFidelityTests.psnr(shown.screen, right), toWoven = PictureFidelityTests.psnr(shown.screen, woven)
        print("\(file): comb \(comb) shown, \(wovenComb) woven; \(toRight) dB from ffmpeg's bwdif, \(toWoven) dB from the woven frame")
        #expect(wovenComb > 3, "\(file): the woven frame does not comb (\(wovenComb)): the metric proves nothing here")
        #expect(toRight >= 35, "\(file): \(toRight) dB from ffmpeg's bwdif rendering")
        #expect(toRight - toWoven >= 6, "\(file): \(toRight) dB from ffmpeg's bwdif rendering, \(toWoven) dB from the woven frame")
    }
}
