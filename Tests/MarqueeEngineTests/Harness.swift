import Foundation
import Marquee
import MarqueeFFmpeg
import MarqueeTestSupport
import Synchronization
import Testing

/// A video output that remembers what was presented (frame index from the
/// fixture's bar code, item time, display time), shown on a simulated display
/// whose screen can be switched off.
final class RecordingVideoOutput: ScreenPowerOutput, @unchecked Sendable {
    // @unchecked: written by the presenter thread, read by the test after the player stopped.
    struct Shown {
        let index: Int?
        let pts: MediaTime
        let display: HostTime
    }

    let display: NullVideoOutput
    private let shown = Mutex<[Shown]>([])

    init(clock: any HostClock, refreshRate: Double = 60) {
        display = NullVideoOutput(clock: clock, refreshRate: refreshRate)
    }

    var acceptedFormats: [PixelFormat] { display.acceptedFormats }
    var refreshInterval: Duration? { display.refreshInterval }

    func present(_ frame: VideoFrame, at target: HostTime) throws -> HostTime {
        let time = try display.present(frame, at: target)
        shown.withLock { $0.append(Shown(index: frameIndex(of: frame), pts: frame.pts, display: time)) }
        return time
    }

    func flush() throws { try display.flush() }

    var isScreenOn: Bool { display.isScreenOn }
    func setScreenPower(_ on: Bool) throws { try display.setScreenPower(on) }

    var frames: [Shown] { shown.withLock { $0 } }
}

/// Runs a player to the end of playback and collects what happened.
final class Run: Sendable {
    let player: QueuePlayer
    let video: RecordingVideoOutput
    let audioPath: String?
    let events = Mutex<[PlayerEvent]>([])

    init(_ sources: [String], untimed: Bool, wav: Bool = false, audio: Bool = true, loop: LoopMode = .none,
         passes: Int? = nil, keepsLog: Bool = true, between: PauseBetweenItems = .cut, transition: ItemTransition = .cut,
         makeAudioOutput: ((AudioFormat, any HostClock) -> any AudioOutput)? = nil) throws {
        let videoClock: any HostClock = untimed ? VirtualClock() : MonotonicClock()
        let audioClock: any HostClock = untimed ? VirtualClock() : videoClock
        video = RecordingVideoOutput(clock: videoClock)
        let format = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-\(UUID().uuidString).wav").path
        audioPath = wav ? path : nil
        var audioOutput: (any AudioOutput)?
        if let makeAudioOutput {
            audioOutput = makeAudioOutput(format, audioClock)
        } else if audio {
            audioOutput = wav ? try WAVAudioOutput(path: path, format: format, clock: audioClock)
                : NullAudioOutput(format: format, clock: audioClock)
        }
        var configuration = PlayerConfiguration(videoOutput: video, audioOutput: audioOutput, hostClock: videoClock,
                                                untimed: untimed, keepsPresentationLog: keepsLog)
        configuration.betweenItems = between
        configuration.transition = transition
        player = QueuePlayer(items: sources.map(PlayerItem.init(source:)), configuration: configuration)
        player.loopMode = loop
        player.loopPasses = passes
    }

    /// Plays until `.playbackFinished` (or `timeout` seconds), then stops the player.
    func playToEnd(rate: Double = 1, timeout: Double = 120) async throws {
        let finished = Mutex(false)
        let token = player.addEventHandler { event in
            self.events.withLock { $0.append(event) }
            if case .playbackFinished = event { finished.withLock { $0 = true } }
        }
        if rate != 1 { player.rate = rate } else { player.play() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !finished.withLock({ $0 }), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        player.removeEventHandler(token)
        player.stop()
        #expect(finished.withLock { $0 }, "playback did not finish within \(timeout) s")
    }

    var eventLog: [PlayerEvent] { events.withLock { $0 } }

    /// A test that throws before stopping still stops the player's threads,
    /// which would otherwise keep the test process from exiting.
    deinit { player.stop() }
}

/// Decoded sample frames of the fixture's audio played once, by our own decoder.
func samplesInOnePass(_ path: String) throws -> Int {
    let demuxer = try Demuxer(source: path)
    let track = try #require(demuxer.media.preferredTrack(.audio))
    let decoder = try AudioDecoder(demuxer: demuxer, stream: track.id,
                                   output: AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16))
    var total = 0
    while let packet = try demuxer.read() {
        guard packet.streamIndex == track.id else { continue }
        total += try decoder.decode(packet).reduce(0) { $0 + $1.frameCount }
    }
    return total + (try decoder.decode(nil).reduce(0) { $0 + $1.frameCount })
}

/// The s16 samples of a PCM WAV file (the bytes after its "data" chunk header).
func wavSamples(_ path: String) throws -> [Int16] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let tag = try #require(data.range(of: Data("data".utf8)))
    return data[(tag.upperBound + 4)...].withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
}
