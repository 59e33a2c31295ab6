import Foundation
import MarqueeCore
@testable import MarqueeALSA

/// A playback PCM simulated on a `HostClock`, behaving like the kernel's: a
/// ring buffer of `bufferFrames`, started when full (the output's start
/// threshold), an underrun (XRUN, then EPIPE) when the hardware pointer catches
/// up with the application pointer, a status delay only while running, a
/// non-blocking drain. Faults are injected by the test: `forceUnderrun`,
/// `suspend`, `unplug`; `resumeAnswers` scripts `snd_pcm_resume`.
///
/// It records every call by its libasound name, and the bytes it "played"
/// (passed by the hardware pointer) so a test can check nothing was lost or
/// repeated. Thread-safe (a lock), since tests poke it while the output runs.
final class SimulatedPCM: PCMDevice, @unchecked Sendable {
    // @unchecked: every mutable field is behind `lock`.
    let name: String
    let parameters: PCMParameters
    private let clock: any HostClock
    private let lock = NSLock()

    private var current: PCMState = .prepared
    /// Application and hardware pointers, in frames since the PCM was made.
    private var appl: Int64 = 0
    private var hw: Int64 = 0
    private var anchorHw: Int64 = 0
    private var anchorTime: HostTime
    private var unplugged = false
    private var queue: [UInt8] = []
    private var heardBytes: [UInt8] = []
    private var callLog: [String] = []
    /// What successive `snd_pcm_resume` calls answer (0 once exhausted).
    var resumeAnswers: [Int32] = []

    init(name: String = "sim", format: AudioFormat = AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16),
         bufferFrames: Int = 4800, periodFrames: Int = 960, canPause: Bool = true, clock: any HostClock) {
        self.name = name
        parameters = PCMParameters(format: format, bufferFrames: bufferFrames, periodFrames: periodFrames,
                                   canPause: canPause, hasMonotonicTimestamps: true)
        self.clock = clock
        anchorTime = clock.now()
    }

    // MARK: What tests look at and do

    var calls: [String] { locked { $0.callLog } }
    var heard: [UInt8] { locked { $0.advance(); return $0.heardBytes } }
    var currentState: PCMState { locked { $0.advance(); return $0.current } }

    /// As if the hardware had played everything and stopped: XRUN.
    func forceUnderrun() {
        locked { pcm in
            pcm.advance()
            pcm.hw = pcm.appl
            pcm.heardBytes += pcm.queue
            pcm.queue.removeAll()
            pcm.current = .xrun
        }
    }

    /// Stopped behind the output's back (state SETUP): writes answer EBADFD.
    func stop() { locked { $0.advance(); $0.appl = $0.hw; $0.queue.removeAll(); $0.current = .setup } }

    /// The system suspended (what was buffered stays, nothing plays).
    func suspend() { locked { $0.advance(); $0.current = .suspended } }

    /// Unplugged: every call answers ENODEV from now on.
    func unplug() { locked { $0.unplugged = true } }

    // MARK: PCMDevice

    func available() throws(ALSAError) -> Int {
        try call("snd_pcm_avail") { pcm throws(ALSAError) in
            try pcm.failUnlessWorking("snd_pcm_avail")
            return pcm.parameters.bufferFrames - Int(pcm.appl - pcm.hw)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, frames: Int) throws(ALSAError) -> Int {
        try call("snd_pcm_writei") { pcm throws(ALSAError) in
            try pcm.failUnlessWorking("snd_pcm_writei")
            guard [.prepared, .running].contains(pcm.current) else { throw pcm.error("snd_pcm_writei", -EBADFD) }
            let room = pcm.parameters.bufferFrames - Int(pcm.appl - pcm.hw)
            guard room > 0 else { throw pcm.error("snd_pcm_writei", -EAGAIN) }
            let count = min(room, frames)
            pcm.queue += bytes.prefix(count * pcm.parameters.format.bytesPerFrame)
            pcm.appl += Int64(count)
            if pcm.current == .prepared, pcm.appl - pcm.hw >= Int64(pcm.parameters.bufferFrames) { pcm.start() }
            return count
        }
    }

    func state() -> PCMState { locked { $0.advance(); return $0.unplugged ? .disconnected : $0.current } }

    func delay() throws(ALSAError) -> Int {
        try call("snd_pcm_delay") { pcm throws(ALSAError) in
            try pcm.failUnlessWorking("snd_pcm_delay")
            return Int(pcm.appl - pcm.hw)
        }
    }

    func status() throws(ALSAError) -> PCMStatus {
        try call("snd_pcm_status") { pcm throws(ALSAError) in
            if pcm.unplugged { throw pcm.error("snd_pcm_status", -ENODEV) }
            let moving = pcm.current == .running || pcm.current == .draining
            // Like the kernel: the status delay counts only while running.
            return PCMStatus(state: pcm.current, delayFrames: moving ? Int(pcm.appl - pcm.hw) : 0, timestamp: pcm.clock.now())
        }
    }

    func setPaused(_ paused: Bool) throws(ALSAError) {
        try call("snd_pcm_pause") { pcm throws(ALSAError) in
            if pcm.unplugged { throw pcm.error("snd_pcm_pause", -ENODEV) }
            guard pcm.parameters.canPause else { throw pcm.error("snd_pcm_pause", -ENOSYS) }
            switch (paused, pcm.current) {
            case (true, .running): pcm.current = .paused
            case (false, .paused): pcm.start()
            default: throw pcm.error("snd_pcm_pause", -EBADFD)
            }
        }
    }

    func drop() throws(ALSAError) {
        try call("snd_pcm_drop") { pcm throws(ALSAError) in
            if pcm.unplugged { throw pcm.error("snd_pcm_drop", -ENODEV) }
            pcm.appl = pcm.hw
            pcm.queue.removeAll()
            pcm.current = .setup
        }
    }

    func prepare() throws(ALSAError) {
        try call("snd_pcm_prepare") { pcm throws(ALSAError) in
            if pcm.unplugged { throw pcm.error("snd_pcm_prepare", -ENODEV) }
            pcm.appl = pcm.hw
            pcm.queue.removeAll()
            pcm.current = .prepared
        }
    }

    func drain() throws(ALSAError) {
        try call("snd_pcm_drain") { pcm throws(ALSAError) in
            try pcm.failUnlessWorking("snd_pcm_drain")
            switch pcm.current {
            case .prepared where pcm.appl > pcm.hw:
                pcm.start()
                pcm.current = .draining
            case .running:
                pcm.current = .draining
            default:
                pcm.current = .setup
                return
            }
            throw pcm.error("snd_pcm_drain", -EAGAIN)   // non-blocking: draining
        }
    }

    func resume() throws(ALSAError) {
        try call("snd_pcm_resume") { pcm throws(ALSAError) in
            if pcm.unplugged { throw pcm.error("snd_pcm_resume", -ENODEV) }
            let answer = pcm.resumeAnswers.isEmpty ? 0 : pcm.resumeAnswers.removeFirst()
            if answer < 0 { throw pcm.error("snd_pcm_resume", answer) }
            pcm.start()
        }
    }

    // MARK: Simulation

    private func locked<T>(_ body: (SimulatedPCM) throws(ALSAError) -> T) throws(ALSAError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(self)
    }

    private func locked<T>(_ body: (SimulatedPCM) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(self)
    }

    private func call<T>(_ name: String, _ body: (SimulatedPCM) throws(ALSAError) -> T) throws(ALSAError) -> T {
        try locked { (pcm: SimulatedPCM) throws(ALSAError) -> T in
            pcm.callLog.append(name)
            pcm.advance()
            return try body(pcm)
        }
    }

    private func error(_ call: String, _ code: Int32) -> ALSAError { ALSAError(call: call, device: name, code: code) }

    private func failUnlessWorking(_ call: String) throws(ALSAError) {
        if unplugged { throw error(call, -ENODEV) }
        if current == .xrun { throw error(call, -EPIPE) }
        if current == .suspended { throw error(call, -ESTRPIPE) }
    }

    private func start() {
        current = .running
        anchorTime = clock.now()
        anchorHw = hw
    }

    /// Moves the hardware pointer to now; running dry is an XRUN, draining dry is SETUP.
    private func advance() {
        guard current == .running || current == .draining else { return }
        let elapsed = Int128(max(0, (clock.now() - anchorTime).nanoseconds))
        let position = min(anchorHw + Int64(elapsed * Int128(parameters.format.sampleRate) / 1_000_000_000), appl)
        let played = Int(position - hw) * parameters.format.bytesPerFrame
        heardBytes += queue.prefix(played)
        queue.removeFirst(min(played, queue.count))
        hw = position
        if hw >= appl { current = current == .draining ? .setup : .xrun }
    }
}
