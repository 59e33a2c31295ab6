import Synchronization

/// Writes exactly the PCM it is given to a WAV file (RIFF/WAVE: PCM for s16
/// and s32, IEEE float for float32), paced like a sound card by an inner
/// `NullAudioOutput` on the same clock, so the audio clock, blocking and
/// underrun counts are the simulated device's.
///
/// The header's sizes are written when the file is created and fixed up by
/// `drain` and when the output is released; a WAV file holds at most 4 GiB.
/// `discard` drops what the device has buffered but not what is in the file.
///
/// Threading: as `AudioOutput`; `delay` is safe from any thread.
public final class WAVAudioOutput: AudioOutput, Sendable {
    public var format: AudioFormat { device.format }
    /// The simulated device that paces writes and answers `delay`.
    public let device: NullAudioOutput
    private let file: OutputFile
    private let header: WAVHeader
    /// PCM bytes in the data chunk; the lock also orders appends and fix-ups.
    private let dataBytes = Mutex<Int64>(0)

    /// Creates (or truncates) the file at `path` with a header for no samples yet;
    /// `driftPPM` is the simulated device's (`NullAudioOutput`).
    /// - Throws: `OutputFileError` naming the failed system call.
    public init(path: String, format: AudioFormat, clock: any HostClock,
                bufferDuration: Duration = .milliseconds(100), driftPPM: Double = 0) throws(OutputFileError) {
        device = NullAudioOutput(format: format, clock: clock, bufferDuration: bufferDuration, driftPPM: driftPPM)
        file = try OutputFile(creating: path)
        header = WAVHeader(format: format)
        try file.append(header.bytes(dataBytes: 0))
    }

    deinit {
        // Nobody can see a failure here; drain() is where it is reported.
        try? fixUpHeader()
    }

    public var path: String { file.path }

    /// Appends `buffer` to the file, then plays it on the simulated device
    /// (blocking while its buffer is full).
    /// - Throws: `OutputFileError` when the file cannot be written.
    public func write(_ buffer: AudioBuffer) throws {
        precondition(buffer.format == format, "write \(buffer.format) to a \(format) output")
        try dataBytes.withLock { (count) throws(OutputFileError) in
            try file.append(buffer.bytes)
            count += Int64(buffer.bytes.count)
        }
        try device.write(buffer)
    }

    public func delay() -> (delay: Duration, at: HostTime) { device.delay() }
    /// The device's: the audio stage waits for room rather than blocking in `write`.
    public func roomTime(forFrames frames: Int) -> HostTime? { device.roomTime(forFrames: frames) }
    public func pause() { device.pause() }
    public func resume() { device.resume() }
    public func discard() { device.discard() }
    public var underruns: Int { device.underruns }

    /// Waits until the device has played everything, then writes the final
    /// sizes into the header, so the file is complete even if the process dies.
    /// - Throws: `OutputFileError` when the header cannot be rewritten.
    public func drain() throws {
        try device.drain()
        try fixUpHeader()
    }

    private func fixUpHeader() throws(OutputFileError) {
        try dataBytes.withLock { (count) throws(OutputFileError) in
            for field in header.sizeFields(dataBytes: count) {
                try file.overwrite(field.value, at: field.offset)
            }
        }
    }
}

/// The RIFF/WAVE header for one `AudioFormat`, and where its size fields are.
struct WAVHeader {
    let format: AudioFormat

    /// WAVE_FORMAT_IEEE_FLOAT needs the extended fmt chunk and a fact chunk
    /// (sample frames) that plain PCM does without.
    private var isFloat: Bool { format.sampleFormat == .float32 }
    private var fmtSize: Int { isFloat ? 18 : 16 }
    private var factOffset: Int? { isFloat ? 12 + 8 + fmtSize + 8 : nil }
    /// Offset of the data chunk's size field.
    private var dataSizeOffset: Int { 12 + 8 + fmtSize + (isFloat ? 12 : 0) + 4 }

    func bytes(dataBytes: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        func tag(_ text: String) { bytes += Array(text.utf8) }
        func u16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { bytes += $0 } }
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { bytes += $0 } }
        tag("RIFF"); u32(0); tag("WAVE")
        tag("fmt "); u32(fmtSize)
        u16(isFloat ? 3 : 1)
        u16(format.channels)
        u32(format.sampleRate)
        u32(format.sampleRate * format.bytesPerFrame)
        u16(format.bytesPerFrame)
        u16(format.sampleFormat.bytesPerSample * 8)
        if isFloat { u16(0); tag("fact"); u32(4); u32(0) }
        tag("data"); u32(0)
        precondition(bytes.count == dataSizeOffset + 4)
        // Sizes go in through the same path as the fix-up, so the two cannot disagree.
        for field in sizeFields(dataBytes: dataBytes) {
            withUnsafeBytes(of: field.value.littleEndian) { bytes.replaceSubrange(field.offset..<field.offset + 4, with: $0) }
        }
        return bytes
    }

    /// The RIFF size, the fact chunk's frame count and the data size, clamped to
    /// what 32 bits hold (a longer recording stays readable up to that point).
    func sizeFields(dataBytes: Int64) -> [(offset: Int, value: UInt32)] {
        let headerBytes = Int64(dataSizeOffset + 4)
        let data = min(dataBytes, Int64(UInt32.max) - headerBytes)
        var fields: [(offset: Int, value: UInt32)] = [(4, UInt32(headerBytes - 8 + data)), (dataSizeOffset, UInt32(data))]
        if let factOffset { fields.append((factOffset, UInt32(data / Int64(format.bytesPerFrame)))) }
        return fields
    }
}
