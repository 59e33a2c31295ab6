import CMicroHTTPD
import Synchronization

/// The body of one event-stream response: MHD's content reader asks for
/// bytes, and the stream answers with its feed's next event, a keep-alive
/// comment when none came within the interval, or the end.
///
/// The reader runs on the connection's thread, which may block there in the
/// feed's `next` (a thread per connection is what makes that safe). MHD
/// finds out that a client went away when it writes, so a stream without
/// events notices within one or two keep-alive intervals.
final class EventStream: @unchecked Sendable {
    // @unchecked: `pending` and `sent` are touched only in `read`, on the
    // connection's thread; `isEnded` is atomic and the rest is constant.

    /// The size of the buffers MHD offers the reader (advisory); an event
    /// longer than one buffer goes out over several reads.
    static let blockBytes = 16 << 10

    /// What the server writes when the feed was idle for a whole interval: a
    /// comment, which clients ignore.
    private static let keepAliveComment = Array(": keep-alive\n\n".utf8)

    let feed: any HTTPEventFeed
    private let keepAlive: Duration
    private let registry: OpenEventStreams
    private let isEnded = Atomic<Bool>(false)
    private var pending: [UInt8] = []
    private var sent = 0

    init(feed: any HTTPEventFeed, keepAlive: Duration, registry: OpenEventStreams) {
        self.feed = feed
        self.keepAlive = keepAlive
        self.registry = registry
    }

    /// Copies up to `capacity` bytes into `buffer`, first waiting in the
    /// feed while nothing is pending. Returns the count, or
    /// MHD_CONTENT_READER_END_OF_STREAM once the feed ended or the stream was
    /// ended from outside (the server stopping).
    private func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        while sent == pending.count {
            if isEnded.load(ordering: .acquiring) { return MHD_CONTENT_READER_END_OF_STREAM }
            switch feed.next(timeout: keepAlive) {
            case .data(let bytes): pending = bytes
            case .idle: pending = Self.keepAliveComment
            case .end: return MHD_CONTENT_READER_END_OF_STREAM
            }
            sent = 0
        }
        let count = min(capacity, pending.count - sent)
        pending.withUnsafeBytes { bytes in
            buffer.copyMemory(from: bytes.baseAddress! + sent, byteCount: count)
        }
        sent += count
        return count
    }

    /// Ends the stream, once: the feed is closed and forgotten. Called when
    /// MHD lets go of the response (the connection is done with it) or by
    /// `OpenEventStreams.endAll()` while the reader may be blocked in the feed.
    func end() {
        guard !isEnded.exchange(true, ordering: .acquiringAndReleasing) else { return }
        feed.close()
        registry.remove(self)
    }

    /// MHD_ContentReaderCallback; `cls` is the stream, retained by the response.
    static let reader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
        return Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue().read(into: UnsafeMutableRawPointer(buffer), capacity: capacity)
    }

    /// MHD_ContentReaderFreeCallback: MHD destroyed the response, on the
    /// connection's thread, when the request ended or the connection closed.
    static let release: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<EventStream>.fromOpaque(cls).takeRetainedValue().end()
    }
}
