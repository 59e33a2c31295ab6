import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// Issue 15, HDR and wide gamut: pictures reach the screen as SDR BT.709,
/// by the documented operator (zscale to linear light, BT.709 primaries,
/// tonemap's Hable curve with no desaturation, zscale back to the BT.709
/// curve and matrix). The first picture, shown paused, is compared with
/// ffmpeg's rendering through the same chain (at least 35 dB) and with the
/// picture read as its matrix says but not converted (at least 6 dB further).
@Suite struct HDRPictureTests {
    static let screen = (width: 640, height: 400)

    /// The operator, spelt out as ffmpeg's filters.
    static func toSDR(transfer: String) -> [String] {
        ["zscale=tin=\(transfer):min=2020_ncl:pin=2020:rin=tv:t=linear:npl=100", "format=gbrpf32le", "zscale=p=bt709",
         "tonemap=tonemap=hable:desat=0", "zscale=t=bt709:m=bt709:r=tv", "format=yuv420p"]
    }

    struct Case: Sendable, CustomStringConvertible {
        var path: String
        /// ffmpeg's filters from the decoded picture to SDR BT.709 YUV.
        var conversion: [String]
        /// What the status says is applied.
        var applied: String
        var description: String { (path as NSString).lastPathComponent }
    }

    /// BT.2020 primaries with the SDR curve: testsrc2's colours written as BT.2020 values.
    static let wideGamut = Fixtures.Recipe(name: "wide-gamut-sdr", fileExtension: "mp4", arguments: [
        "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=0.2",
        "-vf", "scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p",
        "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0",
        "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "bt709", "-color_range", "tv",
    ])

    static var cases: [Case] {
        get throws {
            [Case(path: "\(SharedMedia.directory)/androidx/hlg10-color-test.mp4", conversion: toSDR(transfer: "arib-std-b67"),
                  applied: "tonemap HLG->SDR hable"),
             Case(path: "\(SharedMedia.directory)/androidx/hdr10-av1.mp4", conversion: toSDR(transfer: "smpte2084"),
                  applied: "tonemap PQ->SDR hable"),
             Case(path: try Fixtures.path(wideGamut),
                  conversion: ["zscale=tin=bt709:min=2020_ncl:pin=2020:rin=tv:p=bt709:t=bt709:m=bt709:r=tv", "format=yuv420p"],
                  applied: "BT.2020->BT.709")]
        }
    }

    @Test(arguments: try cases)
    func thePictureIsConvertedToSDRByTheDocumentedOperator(_ test: Case) async throws {
        let shown = try await PictureCapture.paused(test.path, at: 0, width: Self.screen.width, height: Self.screen.height)
        #expect(shown.picture?.hasSuffix("limited BT.709, \(test.applied)") == true, "\(test): \(shown.picture ?? "nothing")")
        let tracks = try await Asset(source: test.path).load(.tracks)
        let track = try #require(tracks.first(where: { $0.mediaType == .video })?.video)
        let sar = track.sampleAspectRatio?.doubleValue ?? 1
        func placed(_ matrix: String) -> [String] {
            PictureCapture.placed(width: track.width, height: track.height, sampleAspect: sar, screen: Self.screen, range: "tv", matrix: matrix)
        }
        let right = try PictureCapture.ffmpeg(test.path, filters: test.conversion + placed("bt709"))
        let unconverted = try PictureCapture.ffmpeg(test.path, filters: placed("bt2020"))
        let toRight = PictureFidelityTests.psnr(shown.screen, right), toWrong = PictureFidelityTests.psnr(shown.screen, unconverted)
        print("\(test): \(toRight) dB from ffmpeg's conversion, \(toWrong) dB from the unconverted picture")
        #expect(toRight >= 35, "\(test): \(toRight) dB from ffmpeg's conversion")
        #expect(toRight - toWrong >= 6, "\(test): \(toRight) dB from ffmpeg's conversion, \(toWrong) dB from the unconverted picture")
    }
}
