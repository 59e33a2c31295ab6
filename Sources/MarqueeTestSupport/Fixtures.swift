import Foundation

/// Synthetic media made with the ffmpeg CLI on first use and cached per
/// recipe, so a test run encodes each clip once.
public enum Fixtures {
    /// A clip recipe: ffmpeg arguments between the inputs and the output file.
    public struct Recipe: Sendable, CustomStringConvertible {
        public let name: String
        public let fileExtension: String
        public let arguments: [String]
        public var description: String { name }

        /// FNV-1a of the arguments: stable across runs, unlike `hashValue`.
        var fingerprint: String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in arguments.joined(separator: "\u{1}").utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return String(hash, radix: 16)
        }

        public init(name: String, fileExtension: String, arguments: [String]) {
            self.name = name
            self.fileExtension = fileExtension
            self.arguments = arguments
        }
    }

    /// Test pattern video plus a tone, `seconds` long.
    public static func clip(_ name: String, seconds: Double = 2, size: String = "320x240", rate: Int = 25,
                            video: [String], audio: [String], container: String) -> Recipe {
        Recipe(name: name, fileExtension: container, arguments: [
            "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
            "-ac", "2",
        ] + video + audio + ["-shortest"])
    }

    /// `seconds` of one colour (an ffmpeg colour name or 0xRRGGBB) at 25 fps,
    /// 320x240 H.264, with a tone: pictures whose brightness is known.
    public static func plain(_ colour: String, seconds: Int = 2) -> Recipe {
        Recipe(name: "plain-\(colour)-\(seconds)s", fileExtension: "mp4", arguments: [
            "-f", "lavfi", "-i", "color=c=\(colour):size=320x240:rate=25:duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
            "-ac", "2", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
        ])
    }

    /// The codec matrix the decode tests cover: every video codec and every
    /// audio codec appears at least once.
    public static let codecMatrix: [Recipe] = [
        clip("h264-aac", video: ["-c:v", "libx264", "-preset", "veryfast", "-bf", "2"], audio: ["-c:a", "aac"], container: "mp4"),
        clip("hevc-mp3", video: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error"],
             audio: ["-c:a", "libmp3lame"], container: "mkv"),
        clip("vp9-opus", video: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"],
             audio: ["-c:a", "libopus"], container: "webm"),
        clip("av1-aac", video: ["-c:v", "libaom-av1", "-cpu-used", "8", "-row-mt", "1"], audio: ["-c:a", "aac"], container: "mp4"),
        clip("mpeg2-ac3", video: ["-c:v", "mpeg2video"], audio: ["-c:a", "ac3"], container: "ts"),
    ]

    /// A clip whose pictures say which frame they are, for tests that check
    /// order, drops and A/V sync without trusting timestamps:
    /// - the top 16 rows are a bar code of the frame number (16 blocks W/16
    ///   wide, block i white when bit i is set; read it with `frameIndex(of:)`);
    /// - the first frame of every second ("flash frame") has a white box over
    ///   the middle quarter of the picture;
    /// - the audio is a quiet 440 Hz tone with a 50 ms, 1 kHz beep (about 20 dB
    ///   louder) at the start of every second, so a beep and a flash belong together.
    ///
    /// - Parameters:
    ///   - seconds: length of video and audio.
    ///   - fps: frame rate; also the keyframe interval (one keyframe per second,
    ///     on the flash frames, with scene-cut detection off).
    ///   - size: "WxH"; any size the codec takes (odd sizes need a 4:4:4 or RGB codec).
    ///   - codec: video encoder; libx264 at a quality that keeps the bar code exact.
    ///   - pixelFormat: "yuv420p", or e.g. "yuv420p10le" for a 10-bit stream
    ///     (the pattern is drawn in 8 bits and converted).
    ///   - audioCodec: "aac", or "pcm_s16le" (then the default container is mkv).
    ///   - sampleRate: 48000 or 44100; stereo.
    ///   - container: file extension; nil picks mp4, or mkv for PCM audio.
    ///   - audioSeconds: audio of another length than the video's.
    ///   - audioFilter: an ffmpeg audio filter chain applied to it (`asetpts`
    ///     to start it late or leave a hole in its timestamps).
    public static func indexed(seconds: Int = 2, fps: Int = 25, size: String = "320x240",
                               codec: String = "libx264", pixelFormat: String = "yuv420p",
                               audioCodec: String = "aac", sampleRate: Int = 48000,
                               container: String? = nil, audioSeconds: Double? = nil, audioFilter: String? = nil,
                               encoderOptions: [String]? = nil) -> Recipe {
        let container = container ?? (audioCodec.hasPrefix("pcm_") ? "mkv" : "mp4")
        // Inside the flash box on this frame (W and H are the current plane's size).
        let flashBox = "eq(mod(N,\(fps)),0)*gte(X,W/4)*lt(X,3*W/4)*gte(Y,H/4)*lt(Y,3*H/4)"
        let bit = "mod(floor(N/pow(2,floor(X*16/W))),2)"
        let luma = "if(lt(Y,16),if(\(bit),235,16),if(\(flashBox),235,lum(X,Y)))"
        // Neutral chroma on the bar code (16 luma rows are 16*SH rows of this plane) and the box.
        func chroma(_ plane: String) -> String { "if(lt(Y,16*SH)+\(flashBox),128,\(plane)(X,Y))" }
        let video = "testsrc2=size=\(size):rate=\(fps):duration=\(seconds),format=yuv420p,"
            + "geq=lum='\(luma)':cb='\(chroma("cb"))':cr='\(chroma("cr"))'"
        let audio = "aevalsrc=exprs='0.05*sin(2*PI*440*t)+lt(mod(t,1),0.05)*0.5*sin(2*PI*1000*t)'"
            + ":s=\(sampleRate):d=\(audioSeconds ?? Double(seconds)):c=stereo"
        let uneven = audioSeconds.map { "-audio\($0)s" } ?? ""
        let options = encoderOptions.map { _ in "-tuned" } ?? ""
        return Recipe(name: "indexed-\(seconds)s-\(fps)fps-\(size)-\(codec)\(options)-\(pixelFormat)-\(audioCodec)-\(sampleRate)\(uneven)",
                      fileExtension: container, arguments: [
            "-f", "lavfi", "-i", video, "-f", "lavfi", "-i", audio,
            "-map", "0:v", "-map", "1:a",
            "-c:v", codec, "-g", "\(fps)", "-pix_fmt", pixelFormat,
        ] + (encoderOptions ?? indexedQuality(codec)) + (audioFilter.map { ["-af", $0] } ?? []) + ["-c:a", audioCodec])
    }

    /// Encoder settings that keep the bar code's blocks clean and the keyframes
    /// where `-g` puts them.
    private static func indexedQuality(_ codec: String) -> [String] {
        switch codec {
        case "libx264": ["-preset", "veryfast", "-crf", "16", "-sc_threshold", "0"]
        case "libx265": ["-preset", "ultrafast", "-crf", "16", "-x265-params", "log-level=error:scenecut=0"]
        case "libvpx-vp9": ["-deadline", "realtime", "-cpu-used", "8", "-crf", "20", "-b:v", "0"]
        case "mpeg2video": ["-q:v", "2"]
        default: []
        }
    }

    /// Where fixtures are cached: under the package's .build folder (ignored by git).
    public static var directory: URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/fixtures")
    }

    private static let lock = NSLock()

    /// The path of the encoded fixture, encoding it if it is not cached yet.
    public static func path(_ recipe: Recipe) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        // The recipe's hash is in the name so an edited recipe never reuses a stale file.
        let target = directory.appendingPathComponent("\(recipe.name)-\(recipe.fingerprint).\(recipe.fileExtension)")
        if FileManager.default.fileExists(atPath: target.path) { return target.path }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let partial = directory.appendingPathComponent("partial-\(recipe.name).\(recipe.fileExtension)")
        let result = try Command.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + recipe.arguments + [partial.path], timeout: 300)
        guard result.status == 0 else { throw CommandError.failed("ffmpeg \(recipe.name)", result) }
        try FileManager.default.moveItem(at: partial, to: target)
        return target.path
    }
}
