import FoundationEssentials
import Glibc
import MarqueeCore
import Synchronization

/// The play log on disk: JSON lines (`PlayRecord`), appended so that a
/// power cut loses at most the line being written and never leaves half of
/// one, and followed across logrotate.
///
/// - Each line is one write(2) on an O_APPEND descriptor, then fdatasync;
///   a short write (a full disk) is cut off again with ftruncate.
/// - At open, a last line without its line break (a power cut in the middle
///   of a write, or a tail of zeros the file system left) is cut back to the
///   last line break, and `warn` is told once.
/// - Before each write the path's st_dev/st_ino are compared with the open
///   descriptor's: a file renamed or removed (logrotate) is closed and a new
///   one started at the path, so no line goes to the rotated file after
///   the rename, and none is written twice.
/// - A file it creates gets mode 0640 and the process's user, and its folder
///   is fsynced so the new name survives a power cut too.
///
/// Thread-safe: appends are serialized behind a lock.
public final class PlayLogFile: Sendable {
    public let path: String
    /// The open descriptor; -1 after a failed reopen (the next append tries again).
    private let descriptor: Mutex<Int32>

    /// Opens the log at `path`, creating it if it is not there, and repairs a torn last line.
    /// - Parameter warn: told once, in one line, when a torn line was cut off.
    /// - Throws: `PlayLogError` naming the call (open, fstat, pread, ftruncate, fdatasync) and the path.
    public init(path: String, warn: (String) -> Void) throws(PlayLogError) {
        self.path = path
        let descriptor = try Self.open(path)
        do throws(PlayLogError) {
            if let cut = try Self.repairTornTail(descriptor, path: path) {
                warn("play log \(path): the last line was not whole (\(cut) bytes, left by a power cut or a crash); cut back to the last whole line")
            }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        let descriptor = self.descriptor.withLock { $0 }
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Appends `record` as one line and waits until it is on disk
    /// (fdatasync); blocks the calling thread for that long.
    /// - Throws: `PlayLogError` naming the call; the file then holds whole lines only.
    public func append(_ record: PlayRecord) throws(PlayLogError) {
        let bytes = Array((record.line + "\n").utf8)
        try descriptor.withLock { (descriptor: inout Int32) throws(PlayLogError) in
            try followRotation(&descriptor)
            var before = stat()
            guard fstat(descriptor, &before) == 0 else { throw PlayLogError(call: "fstat", path: path, code: errno) }
            var written: Int
            repeat {
                written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            } while written < 0 && errno == EINTR
            guard written == bytes.count else {
                let code = written < 0 ? errno : 0
                // Never leave half a line: the next line would be glued to it.
                if written > 0 { _ = ftruncate(descriptor, before.st_size) }
                throw PlayLogError(call: "write", path: path, code: code)
            }
            guard fdatasync(descriptor) == 0 else { throw PlayLogError(call: "fdatasync", path: path, code: errno) }
        }
    }

    /// The records in the log at `path` whose `end` is at or after `since`
    /// (all of them for nil), oldest first; lines that are not records are
    /// passed over. A missing file has none. Reads the whole file on the
    /// calling thread.
    /// - Throws: `PlayLogError` naming the call (open, read) and the path.
    public static func records(at path: String, endingSince since: WallTime? = nil) throws(PlayLogError) -> [PlayRecord] {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return [] }
            throw PlayLogError(call: "open", path: path, code: errno)
        }
        defer { Glibc.close(descriptor) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw PlayLogError(call: "read", path: path, code: errno) }
            if count == 0 { break }
            text += chunk[..<count]
        }
        return text.split(separator: UInt8(ascii: "\n")).compactMap { line -> PlayRecord? in
            guard let record = PlayRecord(line: String(decoding: line, as: UTF8.self)) else { return nil }
            guard let since else { return record }
            guard let end = WallTime(rfc3339: record.end) else { return nil }
            return end.secondsSinceEpoch >= since.secondsSinceEpoch ? record : nil
        }
    }

    /// Starts a new file at the path when the open one is no longer there
    /// (renamed or removed), or after a reopen that failed.
    private func followRotation(_ descriptor: inout Int32) throws(PlayLogError) {
        if descriptor >= 0 {
            var onDisk = stat()
            if stat(path, &onDisk) == 0 {
                var open = stat()
                guard fstat(descriptor, &open) == 0 else { throw PlayLogError(call: "fstat", path: path, code: errno) }
                if onDisk.st_dev == open.st_dev, onDisk.st_ino == open.st_ino { return }
            } else if errno != ENOENT {
                throw PlayLogError(call: "stat", path: path, code: errno)
            }
            Glibc.close(descriptor)
            descriptor = -1
        }
        descriptor = try Self.open(path)
    }

    /// The log opened for appending: created (mode 0640, the folder
    /// fsynced) when it is not there, else opened as it is.
    private static func open(_ path: String) throws(PlayLogError) -> Int32 {
        while true {
            let created = Glibc.open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o640)
            if created >= 0 {
                do throws(PlayLogError) {
                    // The umask may have taken bits away; the mode is part of the contract.
                    guard fchmod(created, 0o640) == 0 else { throw PlayLogError(call: "fchmod", path: path, code: errno) }
                    try syncFolder(of: path)
                } catch {
                    Glibc.close(created)
                    throw error
                }
                return created
            }
            guard errno == EEXIST else { throw PlayLogError(call: "open", path: path, code: errno) }
            let existing = Glibc.open(path, O_RDWR | O_APPEND | O_CLOEXEC)
            if existing >= 0 { return existing }
            // Removed between the two calls: create it after all.
            guard errno == ENOENT else { throw PlayLogError(call: "open", path: path, code: errno) }
        }
    }

    /// fsync of the folder holding `path`, so a new file's name is on disk.
    private static func syncFolder(of path: String) throws(PlayLogError) {
        let folder = PathText.deletingLastComponent(path)
        let directory = Glibc.open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw PlayLogError(call: "open", path: folder, code: errno) }
        defer { Glibc.close(directory) }
        guard fsync(directory) == 0 else { throw PlayLogError(call: "fsync", path: folder, code: errno) }
    }

    /// Cuts a last line that has no line break back to the last one that
    /// does; returns the bytes cut, nil when the file ends whole.
    private static func repairTornTail(_ descriptor: Int32, path: String) throws(PlayLogError) -> Int64? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw PlayLogError(call: "fstat", path: path, code: errno) }
        let size = info.st_size
        guard size > 0 else { return nil }
        var end = size
        var keep: off_t = 0
        // Backwards in blocks, so a long log is not read whole.
        search: while end > 0 {
            let start = max(0, end - 4096)
            var block = [UInt8](repeating: 0, count: Int(end - start))
            let count = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, start) }
            guard count == block.count else { throw PlayLogError(call: "pread", path: path, code: count < 0 ? errno : EIO) }
            if let newline = block.lastIndex(of: UInt8(ascii: "\n")) {
                keep = start + off_t(newline) + 1
                break search
            }
            end = start
        }
        guard keep < size else { return nil }
        guard ftruncate(descriptor, keep) == 0 else { throw PlayLogError(call: "ftruncate", path: path, code: errno) }
        guard fdatasync(descriptor) == 0 else { throw PlayLogError(call: "fdatasync", path: path, code: errno) }
        return Int64(size - keep)
    }
}
