import CALSA
import Glibc
import MarqueeCore

/// An open libasound playback PCM: the one owner of its `snd_pcm_t`, closed
/// in `deinit`. Every libasound call of this module goes through this file,
/// and each return code is checked and thrown as `ALSAError` naming the call.
///
/// The PCM is opened and kept non-blocking (`SND_PCM_NONBLOCK`): the output
/// never holds its lock across a blocking call, and sleeps on its clock instead.
/// Not thread-safe (see `PCMDevice`).
final class PCMHandle: PCMDevice {
    let name: String
    let parameters: PCMParameters
    private let pcm: OpaquePointer
    /// Reused for every `status()`: one allocation per open.
    private let statusBuffer: OpaquePointer

    private init(name: String, pcm: OpaquePointer, statusBuffer: OpaquePointer, parameters: PCMParameters) {
        self.name = name
        self.pcm = pcm
        self.statusBuffer = statusBuffer
        self.parameters = parameters
    }

    deinit {
        // Nobody can act on a failed close; the descriptor is released either way.
        _ = snd_pcm_close(pcm)
        snd_pcm_status_free(statusBuffer)
    }

    /// Opens `name` for playback and negotiates hw and sw params as `request` asks.
    ///
    /// The native rate is found by opening with `SND_PCM_NO_AUTO_RESAMPLE`:
    /// libasound's plug layer then offers only the rates the device (or dmix)
    /// really runs at, and the pipeline's libswresample converts to it.
    /// - Throws: `ALSAError` naming the first call that failed; nothing stays open.
    static func open(name: String, request: PCMRequest) throws(ALSAError) -> PCMHandle {
        ALSALibraryMessages.silence()
        var handle: OpaquePointer?
        var mode = SND_PCM_NONBLOCK
        if case .native = request.rate { mode |= SND_PCM_NO_AUTO_RESAMPLE }
        try check(snd_pcm_open(&handle, name, SND_PCM_STREAM_PLAYBACK, mode), "snd_pcm_open", name)
        guard let pcm = handle else { throw ALSAError(call: "snd_pcm_open", device: name, code: -ENODEV) }
        var statusBuffer: OpaquePointer?
        do {
            try check(snd_pcm_status_malloc(&statusBuffer), "snd_pcm_status_malloc", name)
            let hardware = try negotiateHardware(pcm, name: name, request: request)
            let monotonic = try configureSoftware(pcm, name: name, hardware: hardware)
            let parameters = PCMParameters(format: hardware.format, bufferFrames: hardware.bufferFrames,
                                           periodFrames: hardware.periodFrames, canPause: hardware.canPause,
                                           hasMonotonicTimestamps: monotonic && snd_pcm_type(pcm) == SND_PCM_TYPE_HW)
            return PCMHandle(name: name, pcm: pcm, statusBuffer: statusBuffer!, parameters: parameters)
        } catch {
            _ = snd_pcm_close(pcm)
            if let statusBuffer { snd_pcm_status_free(statusBuffer) }
            throw error
        }
    }

    // MARK: PCMDevice

    func available() throws(ALSAError) -> Int {
        Int(try check(snd_pcm_avail(pcm), "snd_pcm_avail", name))
    }

    func write(_ bytes: UnsafeRawBufferPointer, frames: Int) throws(ALSAError) -> Int {
        precondition(bytes.count >= frames * parameters.format.bytesPerFrame, "write past the buffer")
        return Int(try check(snd_pcm_writei(pcm, bytes.baseAddress, snd_pcm_uframes_t(frames)), "snd_pcm_writei", name))
    }

    func state() -> PCMState { PCMState(snd_pcm_state(pcm)) }

    func delay() throws(ALSAError) -> Int {
        var frames = snd_pcm_sframes_t(0)
        try check(snd_pcm_delay(pcm, &frames), "snd_pcm_delay", name)
        return Int(frames)
    }

    func status() throws(ALSAError) -> PCMStatus {
        try check(snd_pcm_status(pcm, statusBuffer), "snd_pcm_status", name)
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(statusBuffer, &stamp)
        let nanoseconds = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
        let trusted = parameters.hasMonotonicTimestamps && nanoseconds > 0
        return PCMStatus(state: PCMState(snd_pcm_status_get_state(statusBuffer)),
                         delayFrames: Int(snd_pcm_status_get_delay(statusBuffer)),
                         timestamp: trusted ? HostTime(nanoseconds: nanoseconds) : nil)
    }

    func setPaused(_ paused: Bool) throws(ALSAError) {
        try check(snd_pcm_pause(pcm, paused ? 1 : 0), "snd_pcm_pause", name)
    }

    func drop() throws(ALSAError) { try check(snd_pcm_drop(pcm), "snd_pcm_drop", name) }
    func prepare() throws(ALSAError) { try check(snd_pcm_prepare(pcm), "snd_pcm_prepare", name) }
    func drain() throws(ALSAError) { try check(snd_pcm_drain(pcm), "snd_pcm_drain", name) }
    func resume() throws(ALSAError) { try check(snd_pcm_resume(pcm), "snd_pcm_resume", name) }

    // MARK: Negotiation

    private struct Hardware {
        var format: AudioFormat
        var bufferFrames: Int
        var periodFrames: Int
        var canPause: Bool
    }

    /// Access, sample format, channels, rate, then buffer and period time
    /// (buffer first: it bounds the latency, the period only the wake-ups).
    private static func negotiateHardware(_ pcm: OpaquePointer, name: String, request: PCMRequest) throws(ALSAError) -> Hardware {
        var allocated: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&allocated), "snd_pcm_hw_params_malloc", name)
        let hw = allocated!
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any", name)
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access", name)

        let candidates = request.exactFormat ? Array(request.sampleFormats.prefix(1)) : request.sampleFormats
        guard let sampleFormat = candidates.first(where: { snd_pcm_hw_params_test_format(pcm, hw, $0.alsaFormat) == 0 }) else {
            throw ALSAError(call: "snd_pcm_hw_params_set_format", device: name, code: -EINVAL)
        }
        try check(snd_pcm_hw_params_set_format(pcm, hw, sampleFormat.alsaFormat), "snd_pcm_hw_params_set_format", name)

        var channels = UInt32(request.channels)
        if request.exactFormat || snd_pcm_hw_params_test_channels(pcm, hw, channels) == 0 {
            try check(snd_pcm_hw_params_set_channels(pcm, hw, channels), "snd_pcm_hw_params_set_channels", name)
        } else {
            try check(snd_pcm_hw_params_set_channels_near(pcm, hw, &channels), "snd_pcm_hw_params_set_channels_near", name)
        }

        var rate = UInt32(48000)
        var direction: Int32 = 0
        switch request.rate {
        case .exact(let exact):
            rate = UInt32(exact)
            try check(snd_pcm_hw_params_set_rate(pcm, hw, rate, 0), "snd_pcm_hw_params_set_rate", name)
        case .native(let preferred):
            var minimum = UInt32(0), maximum = UInt32(0)
            try check(snd_pcm_hw_params_get_rate_min(hw, &minimum, &direction), "snd_pcm_hw_params_get_rate_min", name)
            try check(snd_pcm_hw_params_get_rate_max(hw, &maximum, &direction), "snd_pcm_hw_params_get_rate_max", name)
            if minimum == maximum {
                rate = minimum
                try check(snd_pcm_hw_params_set_rate(pcm, hw, rate, 0), "snd_pcm_hw_params_set_rate", name)
            } else if let offered = preferred.first(where: { snd_pcm_hw_params_test_rate(pcm, hw, UInt32($0), 0) == 0 }) {
                rate = UInt32(offered)
                try check(snd_pcm_hw_params_set_rate(pcm, hw, rate, 0), "snd_pcm_hw_params_set_rate", name)
            } else {
                rate = UInt32(preferred.first ?? 48000)
                try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &direction), "snd_pcm_hw_params_set_rate_near", name)
            }
        }

        var bufferMicroseconds = UInt32(clamping: max(1, request.bufferDuration.nanoseconds / 1000))
        try check(snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferMicroseconds, &direction),
                  "snd_pcm_hw_params_set_buffer_time_near", name)
        var periodMicroseconds = UInt32(clamping: max(1, request.periodDuration.nanoseconds / 1000))
        try check(snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodMicroseconds, &direction),
                  "snd_pcm_hw_params_set_period_time_near", name)
        try check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params", name)

        var bufferFrames = snd_pcm_uframes_t(0), periodFrames = snd_pcm_uframes_t(0)
        try check(snd_pcm_hw_params_get_buffer_size(hw, &bufferFrames), "snd_pcm_hw_params_get_buffer_size", name)
        try check(snd_pcm_hw_params_get_period_size(hw, &periodFrames, &direction), "snd_pcm_hw_params_get_period_size", name)
        try check(snd_pcm_hw_params_get_rate(hw, &rate, &direction), "snd_pcm_hw_params_get_rate", name)
        try check(snd_pcm_hw_params_get_channels(hw, &channels), "snd_pcm_hw_params_get_channels", name)
        // can_pause answers 0 or 1 (a negative code only for params not yet installed).
        let canPause = try check(snd_pcm_hw_params_can_pause(hw), "snd_pcm_hw_params_can_pause", name) == 1
        return Hardware(format: AudioFormat(sampleRate: Int(rate), channels: Int(channels), sampleFormat: sampleFormat),
                        bufferFrames: Int(bufferFrames), periodFrames: max(1, Int(periodFrames)), canPause: canPause)
    }

    /// Start when the buffer is full (so the first reading of the clock is a
    /// full buffer's worth ahead), wake for a period of room, stop on underrun
    /// (the default), and timestamp status readings on CLOCK_MONOTONIC.
    /// Returns whether the device took the monotonic timestamp type (old
    /// kernels and some plugins refuse it: the output then stamps readings itself).
    private static func configureSoftware(_ pcm: OpaquePointer, name: String, hardware: Hardware) throws(ALSAError) -> Bool {
        var allocated: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&allocated), "snd_pcm_sw_params_malloc", name)
        let sw = allocated!
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current", name)
        try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, snd_pcm_uframes_t(hardware.bufferFrames)),
                  "snd_pcm_sw_params_set_start_threshold", name)
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, snd_pcm_uframes_t(hardware.periodFrames)),
                  "snd_pcm_sw_params_set_avail_min", name)
        try check(snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE), "snd_pcm_sw_params_set_tstamp_mode", name)
        let monotonic = snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC) == 0
        try check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params", name)
        return monotonic
    }
}

extension PCMState {
    init(_ state: snd_pcm_state_t) {
        switch state {
        case SND_PCM_STATE_OPEN: self = .open
        case SND_PCM_STATE_SETUP: self = .setup
        case SND_PCM_STATE_PREPARED: self = .prepared
        case SND_PCM_STATE_RUNNING: self = .running
        case SND_PCM_STATE_XRUN: self = .xrun
        case SND_PCM_STATE_DRAINING: self = .draining
        case SND_PCM_STATE_PAUSED: self = .paused
        case SND_PCM_STATE_SUSPENDED: self = .suspended
        case SND_PCM_STATE_DISCONNECTED: self = .disconnected
        default: self = .other(Int32(bitPattern: state.rawValue))
        }
    }
}

extension SampleFormat {
    /// The little-endian ALSA format (every board Marquee targets is little-endian).
    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        }
    }
}
