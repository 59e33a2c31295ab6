import Foundation
import MarqueeCore
import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// Issue 42: at a start, a decoder on slice threads alone holds the keyframe
/// back until the frames its reordering waits for are decoded too; the
/// keyframe decoded ahead on a thread of its own (`FallbackVideoDecoder.
/// decodeFirstPictureAhead`) is the first picture after one packet instead,
/// the same picture the decoder gives later (which is then dropped), and
/// every other frame comes as without it: once each, in order.
@Suite struct PictureAheadTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let path: @Sendable () throws -> String
        /// The keyframe comes ahead (else a deinterlacing filter keeps it
        /// to the decoder in use, or the codec does not reorder).
        let ahead: Bool
    }

    static func shared(_ name: String, ahead: Bool = true) -> Case {
        Case(description: name, path: { "\(SharedMedia.directory)/\(name)" }, ahead: ahead)
    }

    /// x264's defaults (three B-frames, a pyramid), pixels 4:3 wide, full range.
    static let anamorphicFullRange = Fixtures.Recipe(name: "ahead-anamorphic-full-range", fileExtension: "mp4", arguments: [
        "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-vf", "setsar=4/3",
        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-color_range", "pc",
    ])

    static let cases: [Case] = [
        Case(description: "H.264, closed GOPs with B-frames",
             path: { try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25, size: "160x96")) }, ahead: true),
        Case(description: "H.264 open GOP", path: { try Fixtures.path(OpenGOPSeekTests.h264) }, ahead: true),
        Case(description: "HEVC with CRA pictures", path: { try Fixtures.path(OpenGOPSeekTests.hevc) }, ahead: true),
        Case(description: "H.264, anamorphic, full range", path: { try Fixtures.path(anamorphicFullRange) }, ahead: true),
        shared("androidx/bbb_800x640_768kbps_30fps_avc_pyramid_3b.mp4"),
        shared("androidx/h265_bframes.mp4"),
        shared("mediabunny/rotate-buck-bunny.mp4"),
        // An edit list, rotated 90°, HLG: tone-mapped by the filter, so not decoded ahead.
        shared("androidx/sample_edit_list.mp4", ahead: false),
        shared("interlace/bt601-525_480_interlaced_tff.mkv", ahead: false),
    ]

    /// Every frame of `path`'s video, and whether one had come after the
    /// first packet alone (given time for the picture decoded ahead).
    static func decode(_ path: String, ahead: Bool) throws -> (frames: [VideoFrame], afterOnePacket: Bool) {
        let demuxer = try Demuxer(source: path)
        let track = try #require(demuxer.media.preferredTrack(.video))
        let decoder = try FallbackVideoDecoder(demuxer: demuxer, stream: track.id, threads: DecoderThreads(count: 2, frames: false),
                                               hardware: .software)
        if ahead { decoder.decodeFirstPictureAhead() }
        var frames: [VideoFrame] = []
        func take(_ outcome: FallbackVideoDecoder.Outcome) {
            if case .frames(let decoded) = outcome { frames += decoded }
        }
        var afterOnePacket: Bool?
        while let packet = try demuxer.read() {
            guard packet.streamIndex == track.id else { continue }
            take(try decoder.decode(packet))
            if afterOnePacket == nil {
                // The source looks again at every step; here, for up to 2 s.
                let deadline = Date(timeIntervalSinceNow: 2)
                while frames.isEmpty, ahead, Date() < deadline {
                    if let picture = decoder.pictureAhead() { frames.append(picture) } else { usleep(1000) }
                }
                afterOnePacket = !frames.isEmpty
            }
            if let picture = decoder.pictureAhead() { frames.append(picture) }
        }
        take(try decoder.decode(nil))
        return (frames, afterOnePacket ?? false)
    }

    @Test(arguments: cases)
    func theKeyframeComesAheadAndNothingElseChanges(_ testCase: Case) throws {
        let path = try testCase.path()
        let reference = try Self.decode(path, ahead: false)
        let withAhead = try Self.decode(path, ahead: true)
        #expect(withAhead.frames.map(\.pts) == reference.frames.map(\.pts), "\(testCase): the same frames, once each, in order")
        let first = try #require(withAhead.frames.first), referenceFirst = try #require(reference.frames.first)
        #expect(first.width == referenceFirst.width && first.height == referenceFirst.height, "\(testCase)")
        #expect(first.orientation == referenceFirst.orientation, "\(testCase)")
        #expect(first.sampleAspect == referenceFirst.sampleAspect, "\(testCase)")
        #expect(first.colour == referenceFirst.colour, "\(testCase)")
        #expect(first.pixelFormat == referenceFirst.pixelFormat, "\(testCase)")
        let (heldBack, cameAhead) = (!reference.afterOnePacket, withAhead.afterOnePacket)
        if testCase.ahead {
            // Without it the keyframe waits for the frames it is reordered with.
            #expect(heldBack, "\(testCase): the decoder in use held the keyframe back")
            #expect(cameAhead, "\(testCase): the picture decoded ahead came after one packet")
        } else {
            #expect(!cameAhead, "\(testCase): a picture the filter must see first is not decoded ahead")
        }
    }

    /// The synthetic clip's pictures say which frame they are: the one decoded
    /// ahead is frame 0, pixel for pixel what the decoder in use makes of it.
    @Test func thePictureDecodedAheadIsTheFirstFrame() throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25, size: "160x96"))
        let frames = try Self.decode(path, ahead: true).frames
        #expect(try frames.map { try #require(frameIndex(of: $0)) } == Array(0..<50))
    }
}
