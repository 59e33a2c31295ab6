import FoundationEssentials
import Glibc
import MarqueeControl
import MarqueeCore

/// Replaces a state file so that a crash or a power cut at any point
/// leaves the old file or the new one, never a torn one: the new bytes go
/// to a temporary file in the same folder, which is fsynced, renamed over
/// the old, and the folder fsynced so the rename itself is on disk.
enum AtomicFile {
    /// The test hook: seconds to wait between the temporary file's fsync and
    /// the rename, so a test can kill the player exactly there.
    static let renameDelayVariable = "MARQUEE_TEST_PLAYLIST_RENAME_DELAY"

    /// - Parameter what: names the file in errors ("playlist", "schedule").
    /// - Throws: `ControlError` naming the call and the file.
    static func replace(_ path: String, with bytes: [UInt8], what: String) throws(ControlError) {
        let folder = PathText.deletingLastComponent(path)
        let temporary = "\(folder)/.\(PathText.lastComponent(path)).\(getpid()).tmp"
        func failure(_ call: String, _ file: String) -> ControlError {
            ControlError("\(what): \(call) \(file): \(String(cString: strerror(errno)))")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("open", temporary) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let error = failure("write", temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else {
            let error = failure("fsync", temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure("close", temporary) }
        if let delay = ProcessInfo.processInfo.environment[renameDelayVariable].flatMap(Double.init) {
            StandardStream.error.write("marquee: test: \(temporary) written, renaming in \(delay) s\n")
            usleep(useconds_t(delay * 1e6))
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("rename", temporary)
            unlink(temporary)
            throw error
        }
        try syncFolder(folder, what: what)
    }

    /// fsyncs `folder`, so that the names created, renamed or removed in it
    /// are on disk.
    /// - Throws: `ControlError` naming the call and the folder.
    static func syncFolder(_ folder: String, what: String) throws(ControlError) {
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw ControlError("\(what): open \(folder): \(String(cString: strerror(errno)))") }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw ControlError("\(what): fsync \(folder): \(String(cString: strerror(errno)))") }
    }
}
