import Glibc

/// A failed inotify call: the call, the folder it was for and errno's
/// message, as one line (`/srv/media: inotify_add_watch: Permission denied`).
public struct FolderWatchError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let path: String?
    public let code: Int32

    public var description: String {
        (path.map { "\($0): " } ?? "") + "\(call): \(String(cString: strerror(code)))"
    }
}

/// One event of an inotify watch: what happened to `name` in the watched
/// folder (an empty name: to the folder itself).
struct InotifyEvent: Equatable {
    let watch: Int32
    let mask: UInt32
    let name: String

    func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
}

/// An inotify instance: the one owner of its descriptor, closed in deinit,
/// which also frees every watch the kernel holds for it. Non-blocking, so a
/// read returns what is queued and never waits.
///
/// Not thread-safe: `FolderWatch` uses it on its own serial queue only.
final class InotifyDescriptor {
    let descriptor: Int32

    init() throws(FolderWatchError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw FolderWatchError(call: "inotify_init1", path: nil, code: errno) }
    }

    deinit { close(descriptor) }

    /// Watches the folder at `path`; the same folder watched twice gives the same number.
    func addWatch(_ path: String, mask: UInt32) throws(FolderWatchError) -> Int32 {
        let watch = inotify_add_watch(descriptor, path, mask)
        guard watch >= 0 else { throw FolderWatchError(call: "inotify_add_watch", path: path, code: errno) }
        return watch
    }

    /// Stops watching. A watch the kernel has already dropped (its folder was
    /// deleted: EINVAL) is not a failure.
    func removeWatch(_ watch: Int32, path: String) throws(FolderWatchError) {
        guard inotify_rm_watch(descriptor, watch) != 0 else { return }
        let code = errno
        if code != EINVAL { throw FolderWatchError(call: "inotify_rm_watch", path: path, code: code) }
    }

    /// Every event queued now (none when nothing is).
    func readEvents() throws(FolderWatchError) -> [InotifyEvent] {
        // Room for many events: names are at most NAME_MAX + 1 bytes each.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var events: [InotifyEvent] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return events }
                throw FolderWatchError(call: "read(inotify)", path: nil, code: code)
            }
            events += Self.parse(buffer[..<count])
        }
    }

    /// `struct inotify_event` records: watch, mask, cookie, name length, then the NUL-padded name.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [InotifyEvent] {
        let header = MemoryLayout<inotify_event>.size
        var events: [InotifyEvent] = []
        var offset = bytes.startIndex
        while offset + header <= bytes.endIndex {
            let record = bytes[offset..<(offset + header)].withUnsafeBytes { $0.loadUnaligned(as: inotify_event.self) }
            let nameStart = offset + header
            let nameEnd = min(nameStart + Int(record.len), bytes.endIndex)
            let name = String(decoding: bytes[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
            events.append(InotifyEvent(watch: record.wd, mask: record.mask, name: name))
            offset = nameEnd
        }
        return events
    }
}
