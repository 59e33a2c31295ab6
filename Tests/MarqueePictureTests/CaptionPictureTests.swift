import Foundation
import Marquee
import MarqueeKMS
import MarqueeTestSupport
import Synchronization
import Testing

/// Issue 39's captions on the host: what a KMS plane would show, composed
/// into a `MemoryDisplay`, against ffmpeg's `subtitles` filter (libass too,
/// the same fonts) over the caption band: a mov_text track in an MP4, SRT
/// sidecars in two languages beside an MKV, and a real MKV's SubRip track
/// at a picture size that is not the screen's.
@Suite(.serialized) struct CaptionPictureTests {
    typealias Fidelity = PictureFidelityTests
    static let screen = PixelSize(width: 640, height: 360)
    /// Where the captions are drawn: the bottom third.
    static let band = PixelRect(x: 0, y: 240, width: 640, height: 120)

    static func srt(_ cues: [(Double, Double, String)]) -> String {
        func stamp(_ seconds: Double) -> String {
            let ms = Int((seconds * 1000).rounded())
            return String(format: "%02d:%02d:%02d,%03d", ms / 3_600_000, ms / 60000 % 60, ms / 1000 % 60, ms % 1000)
        }
        return cues.enumerated().map { "\($0.offset + 1)\n\(stamp($0.element.0)) --> \(stamp($0.element.1))\n\($0.element.2)\n" }
            .joined(separator: "\n")
    }

    static let english: [(Double, Double, String)] = [
        (0.0, 3.0, "The first caption"), (4.0, 6.0, "Second: <i>slanted</i> words"), (7.0, 9.5, "Third cue,\non two lines"),
    ]
    static let german: [(Double, Double, String)] = [
        (0.0, 3.0, "Die erste Zeile"), (4.0, 6.0, "Grüße aus der Mitte"), (7.0, 9.5, "Dritte Zeile,\nzweizeilig"),
    ]

    /// 10 s of colour bars at 640x360, 25 fps, with `subtitles` as its mov_text track or none.
    static func clip(_ path: String, subtitles: String?) throws {
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "smptebars=size=640x360:rate=25:duration=10"]
        if let subtitles { arguments += ["-i", subtitles, "-map", "0:v", "-map", "1:s", "-c:s", "mov_text", "-metadata:s:s:0", "language=eng"] }
        let result = try Command.run("ffmpeg", arguments + ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", path])
        try #require(result.status == 0, "\(result.stderr)")
    }

    /// ffmpeg's frame of `video` at `seconds`, scaled to `size`, with `subtitles` (a file or the video's own track) drawn over it.
    static func reference(_ video: String, subtitles: String?, at seconds: Double, size: PixelSize = screen) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("captions-\(UUID().uuidString).rgb").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let filters = "scale=\(size.width):\(size.height)" + (subtitles.map { ",subtitles=\($0)" } ?? "")
        let result = try Command.run("ffmpeg", ["-v", "error", "-y", "-i", video, "-vf", filters, "-ss", String(seconds),
                                                "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", output])
        try #require(result.status == 0, "\(result.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    final class Fixture {
        let display = MemoryDisplay(width: CaptionPictureTests.screen.width, height: CaptionPictureTests.screen.height,
                                    clock: MonotonicClock())
        let player: Player
        /// What the player said of captions.
        final class Said: Sendable {
            let loaded = Mutex<[String]>([])
            let failed = Mutex<[String]>([])
        }

        let said = Said()
        private var token: EventHandlerToken?

        init(_ source: String, captionsFile: String? = nil, criteria: MediaSelectionCriteria? = MediaSelectionCriteria()) {
            var configuration = PlayerConfiguration(videoOutput: display, audioOutput: nil, hardwareDecoding: .software)
            configuration.legibleCriteria = criteria
            player = Player(item: PlayerItem(asset: Asset(source: source, captionsFile: captionsFile)), configuration: configuration)
            token = player.addEventHandler { [said] event in
                switch event {
                case .captionsLoaded(_, let option): said.loaded.withLock { $0.append(option.displayName) }
                case .captionsUnavailable(_, let error): said.failed.withLock { $0.append("\(error)") }
                default: break
                }
            }
        }

        deinit {
            if let token { player.removeEventHandler(token) }
            player.stop()
        }

        /// A paused player opens its item at its first seek, and reads its captions then.
        func waitForCaptions(_ count: Int = 1) async throws {
            if count == 1 { _ = await player.seek(to: .zero) }
            try await LayoutPictureTests.waitUntil { said.loaded.withLock { $0.count >= count } || !said.failed.withLock { $0.isEmpty } }
            try #require(said.failed.withLock { $0.isEmpty }, "\(said.failed.withLock { $0 })")
        }

        /// The screen once the frame at `seconds` is up (paused).
        func screen(at seconds: Double) async throws -> [UInt8] {
            let done = await player.seek(to: MediaTime(seconds: seconds, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
            try #require(done, "seek to \(seconds) s")
            try await Task.sleep(for: .milliseconds(300))
            return display.screen()
        }
    }

    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("captions-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Ours against ffmpeg's over the band, and ffmpeg's with captions against its bare frame (so the band has a caption in it).
    static func expectMatch(_ ours: [UInt8], _ captioned: [UInt8], bare: [UInt8], rect: PixelRect = band, _ what: String) {
        let match = Fidelity.psnr(LayoutPictureTests.crop(ours, rect), LayoutPictureTests.crop(captioned, rect))
        let drawn = Fidelity.psnr(LayoutPictureTests.crop(captioned, rect), LayoutPictureTests.crop(bare, rect))
        #expect(match >= 30, "\(what): \(match) dB from ffmpeg's subtitles")
        #expect(drawn < 25, "\(what): no caption in ffmpeg's band (\(drawn) dB from the bare frame)")
    }

    @Test func aMovTextTrackMatchesFFmpegAtEachCueAfterASeekAndAcrossALoopSeam() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let srt = "\(folder)/english.srt", clip = "\(folder)/clip.mp4"
        try Self.srt(Self.english).write(toFile: srt, atomically: true, encoding: .utf8)
        try Self.clip(clip, subtitles: srt)
        let fixture = Fixture(clip)
        try await fixture.waitForCaptions()
        #expect(fixture.said.loaded.withLock { $0 } == ["eng, track 1"])
        let bare = try Self.reference(clip, subtitles: nil, at: 3.5)
        for seconds in [1.5, 5.0, 8.0] {
            Self.expectMatch(try await fixture.screen(at: seconds), try Self.reference(clip, subtitles: clip, at: seconds), bare: bare,
                             "cue at \(seconds) s")
        }
        // Between cues, nothing: the bars as they are.
        let between = try await fixture.screen(at: 3.5)
        let clear = Fidelity.psnr(LayoutPictureTests.crop(between, Self.band), LayoutPictureTests.crop(bare, Self.band))
        #expect(clear >= 30, "between cues: \(clear) dB from the bare bars")

        // Across the loop seam: the first cue (0-3 s) up again in the second pass.
        fixture.player.loopMode = .item
        _ = try await fixture.screen(at: 9.6)
        fixture.player.play()
        // Paused once the second pass is 0.5 s in, however loaded the machine.
        let deadline = Date(timeIntervalSinceNow: 30)
        while !(0.5..<2.0).contains(fixture.player.currentTime().seconds) {
            try #require(Date() < deadline, "the second pass did not start")
            try await Task.sleep(for: .milliseconds(20))
        }
        fixture.player.pause()
        try await Task.sleep(for: .milliseconds(300))
        let time = fixture.player.currentTime().seconds
        try #require(time > 0.2 && time < 2.8, "after the seam at \(time) s")
        Self.expectMatch(fixture.display.screen(), try Self.reference(clip, subtitles: clip, at: 1.0), bare: bare, "after the seam")
        // Paused after playing (the next frame already taken from the queue): captions off clears them at once.
        fixture.player.setMediaSelectionCriteria(nil, forMediaCharacteristic: .legible)
        try await Task.sleep(for: .milliseconds(300))
        let off = Fidelity.psnr(LayoutPictureTests.crop(fixture.display.screen(), Self.band), LayoutPictureTests.crop(bare, Self.band))
        #expect(off >= 30, "captions off after a pause: \(off) dB from the bare bars")
    }

    @Test func sidecarsBesideAnMKVAreChosenByLanguageAndSwitchedOff() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clip = "\(folder)/show.mkv"
        try Self.clip(clip, subtitles: nil)
        try Self.srt(Self.english).write(toFile: "\(folder)/show.en.srt", atomically: true, encoding: .utf8)
        try Self.srt(Self.german).write(toFile: "\(folder)/show.de.srt", atomically: true, encoding: .utf8)
        let asset = Asset(source: clip)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(group.options.map(\.languageCode) == ["de", "en"])
        #expect(group.options(preferring: ["eng"]).map(\.displayName) == ["en, show.en.srt"])

        let fixture = Fixture(clip, criteria: MediaSelectionCriteria(preferredLanguages: ["fr", "de"]))
        try await fixture.waitForCaptions()
        let bare = try Self.reference(clip, subtitles: nil, at: 5)
        Self.expectMatch(try await fixture.screen(at: 5), try Self.reference(clip, subtitles: "\(folder)/show.de.srt", at: 5), bare: bare,
                         "German sidecar")
        fixture.player.setMediaSelectionCriteria(MediaSelectionCriteria(preferredLanguages: ["en"]), forMediaCharacteristic: .legible)
        try await fixture.waitForCaptions(2)
        Self.expectMatch(try await fixture.screen(at: 8), try Self.reference(clip, subtitles: "\(folder)/show.en.srt", at: 8), bare: bare,
                         "English sidecar")
        // Off and on again while paused: the picture up is drawn again, without and then with them.
        fixture.player.setMediaSelectionCriteria(nil, forMediaCharacteristic: .legible)
        try await Task.sleep(for: .milliseconds(300))
        let clear = Fidelity.psnr(LayoutPictureTests.crop(fixture.display.screen(), Self.band), LayoutPictureTests.crop(bare, Self.band))
        #expect(clear >= 30, "captions off: \(clear) dB from the bare bars")
        fixture.player.setMediaSelectionCriteria(MediaSelectionCriteria(preferredLanguages: ["de"]), forMediaCharacteristic: .legible)
        try await fixture.waitForCaptions(3)
        try await Task.sleep(for: .milliseconds(200))
        Self.expectMatch(fixture.display.screen(), try Self.reference(clip, subtitles: "\(folder)/show.de.srt", at: 8), bare: bare,
                         "German again, paused")
    }

    @Test func aRealMKVsSubRipTrackOnAPictureSmallerThanTheScreen() async throws {
        let clip = SharedMedia.directory + "/androidx/sample_with_srt.mkv"
        let fixture = Fixture(clip)
        try await fixture.waitForCaptions()
        // 1080x720 fitted into 640x360: 540x360 at x 50.
        let picture = PixelSize(width: 540, height: 360)
        let ours = LayoutPictureTests.crop(try await fixture.screen(at: 0.6), PixelRect(x: 50, y: 0, width: 540, height: 360))
        let band = PixelRect(x: 0, y: 240, width: 540, height: 120)
        func crop(_ rgb: [UInt8]) -> [UInt8] { LayoutPictureTests.crop(rgb, band, screenWidth: picture.width) }
        let captioned = try Self.reference(clip, subtitles: clip, at: 0.6, size: picture)
        let bare = try Self.reference(clip, subtitles: nil, at: 0.6, size: picture)
        let match = Fidelity.psnr(crop(ours), crop(captioned)), drawn = Fidelity.psnr(crop(captioned), crop(bare))
        #expect(match >= 30 && drawn < 25, "\(match) dB from ffmpeg's subtitles; ffmpeg's caption \(drawn) dB from its bare frame")
    }

    @Test func aBrokenSubtitleFileIsOneErrorAndThePictureStillPlays() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clip = "\(folder)/broken.mkv"
        try Self.clip(clip, subtitles: nil)
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: "\(folder)/broken.srt"))
        let fixture = Fixture(clip)
        _ = await fixture.player.seek(to: .zero)
        try await LayoutPictureTests.waitUntil { !fixture.said.failed.withLock { $0.isEmpty } }
        let errors = fixture.said.failed.withLock { $0 }
        #expect(errors.count == 1 && errors[0].contains("broken.srt"), "\(errors)")
        let bare = try Self.reference(clip, subtitles: nil, at: 2)
        let shown = try await fixture.screen(at: 2)
        #expect(Fidelity.psnr(LayoutPictureTests.crop(shown, Self.band), LayoutPictureTests.crop(bare, Self.band)) >= 30)
    }
}
