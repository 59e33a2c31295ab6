import FoundationEssentials
import MarqueeConfig
import MarqueeControl
import MarqueeCore
// The fault-injection hooks are SPI of the backends, not their public API:
// this file is the only place the command reaches them, from variables a
// test sets in the environment.
@_spi(Testing) import Marquee
@_spi(Testing) import MarqueeALSA
@_spi(Testing) import MarqueeFFmpeg

public enum TestHooks {
    /// Stall the audio writer once for this many milliseconds, after
    /// `stallAfterVariable` ms of audio (default 2000), to force an ALSA
    /// underrun (documented in docs/alsa.md).
    static let stallVariable = "MARQUEE_TEST_STALL_AUDIO_MS"
    static let stallAfterVariable = "MARQUEE_TEST_STALL_AUDIO_AFTER_MS"

    /// The hardware decoder is the software one failing after this many
    /// frames, so the switch to software mid-stream runs without a VA-API
    /// device (see `HardwareDecoding.failAfterFrames`).
    static let hardwareFailureVariable = "MARQUEE_TEST_HWDEC_FAIL_AFTER"

    /// Hold this stage's thread ("source", "present" or "audio") inside a
    /// step for an hour, after `stageStallAfterVariable` ms (default 2000):
    /// a stuck decoder or page flip, for the watchdog (`Liveness`) to notice.
    static let stageStallVariable = "MARQUEE_TEST_STALL_STAGE"
    static let stageStallAfterVariable = "MARQUEE_TEST_STALL_STAGE_AFTER_MS"

    /// The schedule's real time is the system's moved by this many seconds,
    /// trusted as synchronised (see `ShiftedWallClock`), so a test can put a
    /// boundary a few seconds after the player starts.
    static let wallClockShiftVariable = "MARQUEE_TEST_WALL_CLOCK_SHIFT"

    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static func shiftedWallClock() -> ScheduleClock? {
        guard let seconds = environment[wallClockShiftVariable].flatMap(Double.init) else { return nil }
        return ScheduleClock(clock: ShiftedWallClock(seconds: seconds),
                             alarm: { () throws(AlarmError) in try ShiftedWallClock.Alarm(seconds: seconds) },
                             synchronisation: ScheduleClock.Trusted())
    }

    static func applyStageStall(to configuration: inout PlayerConfiguration) {
        guard let stage = environment[stageStallVariable], !stage.isEmpty else { return }
        let after = environment[stageStallAfterVariable].flatMap(Int.init) ?? 2000
        configuration.stageStall = StageStall(stage: stage, after: .milliseconds(after), duration: .seconds(3600))
    }

    public static func applyHardwareFailure(to decoding: inout HardwareDecoding) throws(TestHookError) {
        guard let text = environment[hardwareFailureVariable] else { return }
        guard let frames = Int(text), frames >= 0 else {
            throw TestHookError(description: "\(hardwareFailureVariable) must be a number of frames, not '\(text)'")
        }
        decoding.failAfterFrames = frames
    }

    public static func applyAudioStall(to configuration: inout ALSAAudioOutput.Configuration) {
        guard let stall = environment[stallVariable].flatMap(Int.init), stall > 0 else { return }
        let after = environment[stallAfterVariable].flatMap(Int.init) ?? 2000
        configuration.testStall = .init(after: .milliseconds(after), duration: .milliseconds(stall))
    }
}

/// A test hook's variable that cannot be read, named.
public struct TestHookError: Error, CustomStringConvertible {
    public let description: String
}
