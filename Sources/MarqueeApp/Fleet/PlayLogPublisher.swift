import FoundationEssentials
import Glibc
import MarqueeCore
import MarqueeFleet
import Synchronization

/// Sends the play log's lines to `marquee/ID/plays` at QoS 1, each with a
/// sequence number, from the file: lines written while the broker was away
/// go out when it is back, none lost, and a line sent again (a reconnect
/// before its acknowledgement, a restart) carries the same number, so a
/// collector keeps the first of each. At most `window` lines are in flight.
///
/// The cursor (the number of the last acknowledged line, the offset after
/// it and the file's inode) is kept in `PATH.sent`; a file with another
/// inode (logrotate moved the log away) is read from its start, numbers
/// going on. Called on the fleet's queue only.
final class PlayLogPublisher: Sendable {
    struct Cursor: Equatable {
        var sequence: Int
        var offset: Int
        var inode: UInt64
    }

    static let window = 16
    /// Read at most this much of the file at once.
    static let chunk = 64 * 1024
    let path: String
    var cursorPath: String { path + ".sent" }
    private let state: Mutex<State>

    private struct State {
        /// The last line the broker acknowledged.
        var acknowledged: Cursor
        /// After the last line published.
        var sent: Cursor
        /// Published lines in order: message id, the cursor after it, acknowledged yet.
        var inFlight: [(messageID: Int32, after: Cursor, done: Bool)] = []
    }

    init(path: String) {
        self.path = path
        let cursor = Self.readCursor(path + ".sent") ?? Cursor(sequence: 0, offset: 0, inode: 0)
        state = Mutex(State(acknowledged: cursor, sent: cursor))
    }

    /// After a reconnect: what was in flight is sent again from the last acknowledged line.
    func restart() {
        state.withLock { state in
            state.sent = state.acknowledged
            state.inFlight.removeAll()
        }
    }

    /// Publishes the lines after the last one sent, up to the window.
    /// - Returns: why a line could not be published, if one could not.
    @discardableResult
    func pump(_ client: MQTTClient, topic: String, screen: String) -> String? {
        var sent = state.withLock { $0.sent }
        let room = Self.window - state.withLock { $0.inFlight.count }
        guard room > 0, client.isConnected else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }  // no line written yet
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return "fstat \(path): \(String(cString: strerror(errno)))" }
        if UInt64(info.st_ino) != sent.inode || Int(info.st_size) < sent.offset {
            sent = Cursor(sequence: sent.sequence, offset: 0, inode: UInt64(info.st_ino))
        }
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Self.chunk, off_t(sent.offset)) }
        guard count > 0 else { return count < 0 ? "pread \(path): \(String(cString: strerror(errno)))" : nil }
        var lineStart = 0, published = 0
        for index in 0..<count where buffer[index] == UInt8(ascii: "\n") && published < room {
            let line = buffer[lineStart..<index]
            lineStart = index + 1
            var after = sent
            after.sequence += 1
            after.offset += line.count + 1
            // A line that is not a record (cut short by a crash and mended) still takes its number.
            guard line.first == UInt8(ascii: "{") else {
                sent = after
                continue
            }
            let payload = Array("{\"seq\":\(after.sequence),\"screen\":\(JSONString.quoted(screen)),".utf8) + line.dropFirst()
            do throws(MQTTError) {
                let messageID = try client.publish(MQTTMessage(topic: topic, payload: payload, qos: 1))
                state.withLock { $0.inFlight.append((messageID, after, false)) }
            } catch {
                state.withLock { $0.sent = sent }
                return "\(error)"
            }
            sent = after
            published += 1
        }
        state.withLock { $0.sent = sent }
        return nil
    }

    /// The broker acknowledged `messageID`: the cursor moves past every
    /// line acknowledged in order, and is saved.
    /// - Returns: whether it was one of ours.
    func acknowledged(_ messageID: Int32) -> Bool {
        let (ours, moved) = state.withLock { state -> (Bool, Cursor?) in
            guard let index = state.inFlight.firstIndex(where: { $0.messageID == messageID }) else { return (false, nil) }
            state.inFlight[index].done = true
            var last: Cursor?
            while let first = state.inFlight.first, first.done {
                last = first.after
                state.inFlight.removeFirst()
            }
            if let last { state.acknowledged = last }
            return (true, last)
        }
        if let moved { Self.writeCursor(moved, to: cursorPath) }
        return ours
    }

    /// Lines acknowledged so far (the last one's number).
    var acknowledgedSequence: Int { state.withLock { $0.acknowledged.sequence } }

    private static func readCursor(_ path: String) -> Cursor? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count == 3, let sequence = Int(fields[0]), let offset = Int(fields[1]), let inode = UInt64(fields[2]) else { return nil }
        return Cursor(sequence: sequence, offset: offset, inode: inode)
    }

    /// Written whole and renamed into place; not fsynced: a cursor lost to
    /// a power cut sends lines again, under the same numbers.
    private static func writeCursor(_ cursor: Cursor, to path: String) {
        let temporary = path + ".tmp"
        let text = "\(cursor.sequence) \(cursor.offset) \(cursor.inode)\n"
        guard (try? Data(text.utf8).write(to: URL(fileURLWithPath: temporary))) != nil else { return }
        rename(temporary, path)
    }
}
