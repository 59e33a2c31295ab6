import Glibc

/// A failed system call on an output file: which call, on which path, and errno.
public struct OutputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call that failed, e.g. "open", "write", "mkdir".
    public let call: String
    public let path: String
    public let code: Int32

    public init(call: String, path: String, code: Int32) {
        self.call = call
        self.path = path
        self.code = code
    }

    public var description: String { "\(path): \(call): \(String(cString: strerror(code)))" }
}

/// A file the file outputs write, owning its descriptor (closed in deinit).
///
/// Sendable: it holds no mutable state; each call is one or more whole
/// system calls, retried on EINTR and on short writes.
final class OutputFile: Sendable {
    let path: String
    private let descriptor: Int32

    /// Creates `path`, or truncates it if it exists.
    init(creating path: String) throws(OutputFileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputFileError(call: "open", path: path, code: errno) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Appends all of `bytes` at the end of what was written so far.
    func append(_ bytes: UnsafeRawBufferPointer) throws(OutputFileError) {
        try writeAll(bytes, call: "write") { chunk, _ in write(descriptor, chunk.baseAddress, chunk.count) }
    }

    /// Appends all of `bytes`.
    func append(_ bytes: [UInt8]) throws(OutputFileError) {
        // withUnsafeBytes rethrows untyped errors, so the typed one is carried out by hand.
        var failure: OutputFileError?
        bytes.withUnsafeBytes { raw in
            do throws(OutputFileError) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Overwrites a little-endian 32-bit field at `offset`.
    func overwrite(_ value: UInt32, at offset: Int) throws(OutputFileError) {
        var failure: OutputFileError?
        withUnsafeBytes(of: value.littleEndian) { raw in
            do throws(OutputFileError) { try overwrite(raw, at: offset) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Overwrites bytes at `offset` (a header field) without moving the append position.
    func overwrite(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(OutputFileError) {
        try writeAll(bytes, call: "pwrite") { chunk, done in
            pwrite(descriptor, chunk.baseAddress, chunk.count, off_t(offset + done))
        }
    }

    /// Calls `write` with what is left (and how much was written before it)
    /// until all of `bytes` is written.
    private func writeAll(_ bytes: UnsafeRawBufferPointer, call: String,
                          _ write: (UnsafeRawBufferPointer, Int) -> Int) throws(OutputFileError) {
        var done = 0
        while done < bytes.count {
            let written = write(UnsafeRawBufferPointer(rebasing: bytes[done...]), done)
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputFileError(call: call, path: path, code: errno)
            }
            done += written
        }
    }

    /// Creates the directory `path` (its parent must exist); an existing one is fine.
    static func makeDirectory(_ path: String) throws(OutputFileError) {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw OutputFileError(call: "mkdir", path: path, code: errno)
        }
    }
}
