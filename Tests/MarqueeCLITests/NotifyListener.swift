import Foundation
import Glibc

/// What a service manager would read from `NOTIFY_SOCKET`: a datagram
/// socket bound in a scratch folder, each message with the CLOCK_MONOTONIC
/// second it arrived. The test reads the protocol's output; systemd itself
/// is tried on the board. With `abstract`, the socket has a name in Linux's
/// abstract namespace instead, which `NOTIFY_SOCKET` writes with a leading '@'.
final class NotifyListener {
    /// What `NOTIFY_SOCKET` is set to.
    let path: String
    private let folder: String
    private let descriptor: Int32
    private(set) var messages: [(time: Double, text: String)] = []

    init(abstract: Bool = false) throws {
        let name = "marquee-notify-\(UUID().uuidString)"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = abstract ? "@\(name)" : "\(folder)/notify"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // An abstract name: a NUL where the '@' is, and only the name's bytes count.
        let bytes = abstract ? [0] + Array(name.utf8) : Array(path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit {
        close(descriptor)
        try? FileManager.default.removeItem(atPath: folder)
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Reads messages for `seconds`, or until one satisfies `until`; returns that one.
    @discardableResult
    func read(for seconds: Double, until: (String) -> Bool = { _ in false }) -> String? {
        let end = Self.now() + seconds
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Self.now() < end {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, (end - Self.now()) * 1000))) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            messages.append((Self.now(), text))
            if until(text) { return text }
        }
        return nil
    }

    /// Arrival times of `WATCHDOG=1`.
    var pings: [Double] { messages.filter { $0.text == "WATCHDOG=1" }.map(\.time) }
}
