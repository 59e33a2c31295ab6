import CFFmpeg
import MarqueeCore
@testable import MarqueeFFmpeg
import MarqueeTestSupport
import Testing

/// Issue 42: a decoder on slice threads alone that is given frame threads
/// mid-stream (`FallbackVideoDecoder.useFrameThreads`, as the source does when
/// it falls behind) changes at the next keyframe: the frames the old decoder
/// still held (B-frames waiting for their reference) come out first, nothing
/// is repeated, and after a closed-GOP keyframe nothing is lost. After an
/// open-GOP keyframe (x264 open-gop, an HEVC CRA) only the pictures shown
/// before it but decoded after it, against the GOP before, are left out.
@Suite struct FrameThreadsSwitchTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let recipe: Fixtures.Recipe
        let openGOP: Bool
    }

    static let cases = [
        Case(description: "H.264, closed GOPs with B-frames",
             recipe: Fixtures.indexed(seconds: OpenGOPSeekTests.seconds, fps: OpenGOPSeekTests.fps, size: "160x96"), openGOP: false),
        Case(description: "H.264 open GOP", recipe: OpenGOPSeekTests.h264, openGOP: true),
        Case(description: "HEVC with CRA pictures", recipe: OpenGOPSeekTests.hevc, openGOP: true),
    ]

    /// The frame numbers decoded from `path`, frame threads asked for after
    /// the `switchAfter`th video packet (nil: never), and the threads at the end.
    static func decode(_ path: String, switchAfter: Int?) throws -> (indices: [Int], threads: DecoderThreads) {
        let demuxer = try Demuxer(source: path)
        let track = try #require(demuxer.media.preferredTrack(.video))
        let decoder = try FallbackVideoDecoder(demuxer: demuxer, stream: track.id, threads: DecoderThreads(count: 2, frames: false),
                                               hardware: .software)
        var frames: [VideoFrame] = []
        var packets = 0
        func take(_ outcome: FallbackVideoDecoder.Outcome) {
            if case .frames(let decoded) = outcome { frames += decoded }
        }
        while let packet = try demuxer.read() {
            guard packet.streamIndex == track.id else { continue }
            take(try decoder.decode(packet))
            packets += 1
            if packets == switchAfter { decoder.useFrameThreads() }
        }
        take(try decoder.decode(nil))
        return (try frames.map { try #require(frameIndex(of: $0)) }, decoder.threads)
    }

    @Test(arguments: cases)
    func frameThreadsComeInAtTheNextKeyframe(_ testCase: Case) throws {
        let path = try Fixtures.path(testCase.recipe)
        let reference = try Self.decode(path, switchAfter: nil)
        #expect(reference.threads == DecoderThreads(count: 2, frames: false))
        #expect(reference.indices == Array(0..<OpenGOPSeekTests.seconds * OpenGOPSeekTests.fps), "\(testCase): the whole clip on slices")
        // A few packets into the first GOP: the switch waits for the second keyframe (frame 30).
        let switched = try Self.decode(path, switchAfter: 5)
        #expect(switched.threads == DecoderThreads(count: 2, frames: true))
        #expect(switched.indices == switched.indices.sorted() && Set(switched.indices).count == switched.indices.count,
                "\(testCase): in order, none twice: \(switched.indices)")
        let lost = Set(reference.indices).subtracting(switched.indices).sorted()
        if testCase.openGOP {
            // At most the B-frames (three) before the keyframe at frame 30.
            #expect(lost.count <= 3 && lost.allSatisfy { (27..<30).contains($0) }, "\(testCase): lost \(lost)")
        } else {
            #expect(lost.isEmpty, "\(testCase): lost \(lost)")
        }
    }

    /// A decoder opened mid-stream opens from the parameters copied when the
    /// item opened (`CodecParameters`), not from the stream's, which a
    /// network item's read-ahead thread may be rewriting inside
    /// av_read_frame: with the stream's rewritten (another codec, no
    /// extradata) just before frame threads come in, every frame still comes.
    @Test func aDecoderOpenedMidStreamOpensFromTheParametersOfTheOpen() throws {
        let path = try Fixtures.path(Self.cases[0].recipe)
        let demuxer = try Demuxer(source: path)
        let track = try #require(demuxer.media.preferredTrack(.video))
        let decoder = try FallbackVideoDecoder(demuxer: demuxer, stream: track.id, threads: DecoderThreads(count: 2, frames: false),
                                               hardware: .software)
        let parameters = try #require(demuxer.stream(track.id).pointee.codecpar)
        let opened = parameters.pointee
        defer {
            parameters.pointee.codec_id = opened.codec_id
            parameters.pointee.extradata = opened.extradata
            parameters.pointee.extradata_size = opened.extradata_size
        }
        var frames: [VideoFrame] = []
        var packets = 0
        while let packet = try demuxer.read() {
            guard packet.streamIndex == track.id else { continue }
            if case .frames(let decoded) = try decoder.decode(packet) { frames += decoded }
            packets += 1
            if packets == 5 {
                decoder.useFrameThreads()
                parameters.pointee.codec_id = AV_CODEC_ID_MPEG2VIDEO
                parameters.pointee.extradata = nil
                parameters.pointee.extradata_size = 0
            }
        }
        if case .frames(let decoded) = try decoder.decode(nil) { frames += decoded }
        #expect(decoder.threads == DecoderThreads(count: 2, frames: true))
        #expect(try frames.map { try #require(frameIndex(of: $0)) } == Array(0..<OpenGOPSeekTests.seconds * OpenGOPSeekTests.fps))
    }
}
