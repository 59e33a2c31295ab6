/// Keeps sound on a clock its device does not run on: from the measured
/// offset of what is heard against that clock, the ratio to play the sound
/// at (output frames per input frame). A proportional-integral controller:
/// the integral settles on the device's drift, so the offset goes to zero
/// and stays there rather than trailing by drift / gain.
///
/// Critically damped with a time constant of `timeConstant` seconds: slow
/// enough that the jitter of a device's delay reading is not turned into
/// pitch wobble, fast enough that a crystal's drift builds no more than a
/// fraction of a millisecond before it is matched. The correction is
/// bounded by `maximumCorrection` (mpv's default for the same job,
/// `video-sync-max-audio-change`, is 0.125 %): an offset it cannot close
/// is a stall or a clock step, the caller's to fix by moving the sound.
///
/// Not thread-safe: the audio writer owns it.
public struct DriftController: Sendable {
    public static let timeConstant = 4.0
    public static let maximumCorrection = 0.00125
    /// Per second, and per second squared (critical damping: ki = kp² / 4).
    static let proportionalGain = 2 / timeConstant
    static let integralGain = proportionalGain * proportionalGain / 4

    /// Offset seconds integrated over time; bounded so its share of the
    /// correction never exceeds the maximum (no wind-up while clamped).
    private var integral = 0.0
    private var last: HostTime?
    /// The ratio minus one: positive plays the sound longer.
    public private(set) var correction = 0.0

    public init() {}

    /// The ratio to play at: 1 + `correction`.
    public var ratio: Double { 1 + correction }

    /// The integral's share of the correction: the device's drift as learnt,
    /// without the proportional term's reaction to each reading's jitter
    /// (what a person reading the status wants to see).
    public var learntDrift: Double { -Self.integralGain * integral }

    /// Takes the offset of what is heard at `at`: the schedule's time minus
    /// the time of the sound heard, in seconds (positive: the sound is
    /// late, so it is played shorter to catch up).
    public mutating func update(offset: Double, at time: HostTime) {
        if let last, time > last {
            let bound = Self.maximumCorrection / Self.integralGain
            integral = min(max(integral + offset * (time - last).secondsDouble, -bound), bound)
        }
        last = time
        let wanted = -(Self.proportionalGain * offset + Self.integralGain * integral)
        correction = min(max(wanted, -Self.maximumCorrection), Self.maximumCorrection)
    }

    /// Starts over: a different device, or the sound moved (its offset is not this one's).
    public mutating func reset() {
        integral = 0
        last = nil
        correction = 0
    }

    /// The same offsets after the sound was moved by the caller: the
    /// drift learnt is kept, the time since the last reading is not counted.
    public mutating func restartReadings() {
        last = nil
    }
}
