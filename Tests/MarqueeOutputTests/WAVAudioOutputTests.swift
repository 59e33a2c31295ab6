import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// The parts of a WAV file a reader depends on, parsed independently of the writer.
struct ParsedWAV {
    var riffSize: UInt32 = 0
    var formatTag: UInt16 = 0
    var channels: UInt16 = 0
    var sampleRate: UInt32 = 0
    var byteRate: UInt32 = 0
    var blockAlign: UInt16 = 0
    var bitsPerSample: UInt16 = 0
    var factFrames: UInt32?
    var data: [UInt8] = []

    init(_ file: [UInt8]) throws {
        func u32(_ at: Int) -> UInt32 { file[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        func u16(_ at: Int) -> UInt16 { UInt16(file[at]) | UInt16(file[at + 1]) << 8 }
        func tag(_ at: Int) -> String { String(decoding: file[at..<at + 4], as: UTF8.self) }
        guard file.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw TestMediaError("not RIFF/WAVE") }
        riffSize = u32(4)
        var chunk = 12
        while chunk + 8 <= file.count {
            let size = Int(u32(chunk + 4)), body = chunk + 8
            switch tag(chunk) {
            case "fmt ":
                (formatTag, channels, sampleRate) = (u16(body), u16(body + 2), u32(body + 4))
                (byteRate, blockAlign, bitsPerSample) = (u32(body + 8), u16(body + 12), u16(body + 14))
            case "fact": factFrames = u32(body)
            case "data": data = Array(file[body..<min(file.count, body + size)])
            default: break
            }
            chunk = body + size + size % 2
        }
    }
}

@Suite struct WAVAudioOutputTests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    /// Deterministic, non-repeating bytes: any reordering or loss shows.
    func pattern(frames: Int, _ format: AudioFormat, seed: Int) -> AudioBuffer {
        let bytes = (0..<frames * format.bytesPerFrame).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ seed) >> 7) }
        return AudioBuffer(pts: .zero, format: format, bytes: bytes)
    }

    static let formats: [(AudioFormat, tag: UInt16, codec: String)] = [
        (AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16), 1, "pcm_s16le"),
        (AudioFormat(sampleRate: 44100, channels: 1, sampleFormat: .s32), 1, "pcm_s32le"),
        (AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .float32), 3, "pcm_f32le"),
    ]

    @Test(arguments: 0..<formats.count)
    func writesExactlyTheSamplesGiven(_ which: Int) throws {
        let (format, tag, codec) = Self.formats[which]
        let path = "\(scratch.path)/\(codec).wav"
        let clock = VirtualClock()
        let output = try WAVAudioOutput(path: path, format: format, clock: clock)
        var given: [UInt8] = []
        for (index, frames) in [1, 480, 4_410, 7, 12_000].enumerated() {
            let buffer = pattern(frames: frames, format, seed: index)
            try output.write(buffer)
            given += buffer.bytes
        }
        try output.drain()
        let frames = given.count / format.bytesPerFrame
        #expect(clock.now() == HostTime(nanoseconds: (Int64(frames) * 1_000_000_000 + Int64(format.sampleRate) - 1) / Int64(format.sampleRate)),
                "paced by the simulated device")

        let file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let wav = try ParsedWAV(file)
        #expect(wav.riffSize == UInt32(file.count - 8))
        #expect(wav.formatTag == tag && Int(wav.channels) == format.channels && Int(wav.sampleRate) == format.sampleRate)
        #expect(Int(wav.blockAlign) == format.bytesPerFrame && Int(wav.byteRate) == format.sampleRate * format.bytesPerFrame)
        #expect(Int(wav.bitsPerSample) == format.sampleFormat.bytesPerSample * 8)
        #expect(wav.factFrames == (format.sampleFormat == .float32 ? UInt32(frames) : nil))
        #expect(wav.data == given)

        let stream = try probeStream(path, "codec_name,sample_rate,channels")
        #expect(stream["codec_name"] == codec && stream["sample_rate"] == "\(format.sampleRate)" && stream["channels"] == "\(format.channels)")
        #expect(try decodedSampleCount(path) == frames)
    }

    @Test func releasingTheOutputFixesTheHeaderUp() throws {
        let path = "\(scratch.path)/released.wav"
        do {
            let output = try WAVAudioOutput(path: path, format: stereo48k, clock: VirtualClock())
            try output.write(silence(250))
            let early = try ParsedWAV(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(early.data.isEmpty, "sizes are only written on drain and release")
        }
        let wav = try ParsedWAV(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(wav.data.count == 250 * 192)
        #expect(try decodedSampleCount(path) == 12_000)
    }

    @Test func pacingAndDelayAreTheSimulatedDevices() throws {
        let clock = ManualClock()
        let output = try WAVAudioOutput(path: "\(scratch.path)/paced.wav", format: stereo48k, clock: clock,
                                        bufferDuration: .milliseconds(40))
        try output.write(silence(40))
        clock.advance(by: .milliseconds(15))
        #expect(output.delay() == (.milliseconds(25), .ms(15)))
        output.pause()
        clock.advance(by: .milliseconds(15))
        #expect(output.delay().delay == .milliseconds(25))
        output.resume()
        output.discard()
        #expect(output.delay().delay == .zero && output.device.underruns == 0)
        #expect(output.device.bufferFrames == 1_920)
    }

    @Test func aFileThatCannotBeCreatedNamesTheCallAndPath() {
        let path = "\(scratch.path)/missing/out.wav"
        let error = #expect(throws: OutputFileError.self) {
            try WAVAudioOutput(path: path, format: stereo48k, clock: VirtualClock())
        }
        #expect(error?.call == "open" && error?.path == path && error?.code == ENOENT)
        #expect(error?.description == "\(path): open: No such file or directory")
    }

    /// Sample frames ffmpeg decodes from the file, summed over its audio frames.
    func decodedSampleCount(_ path: String) throws -> Int {
        let result = try Command.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "frame=nb_samples",
                                                 "-of", "csv=p=0", path])
        guard result.status == 0 else { throw CommandError.failed("ffprobe \(path)", result) }
        return result.stdout.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.reduce(0, +)
    }
}
