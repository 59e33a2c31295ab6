import FoundationEssentials
import Glibc
import MarqueeCore
import Synchronization

/// Commands from a file descriptor (standard input), one per line, each
/// answered with one reply line on `replies`. Runs on its own thread; a bad
/// line gets an error reply and reading goes on; at end of input the source
/// stops and the player plays on.
public final class StdinControlSource: Sendable {
    private let descriptor: Int32
    private let format: CommandFormat
    private let executor: CommandExecutor
    private let replies: LineWriter
    private let ended = Atomic<Bool>(false)
    private let onEnd: @Sendable (String?) -> Void

    /// - Parameters:
    ///   - descriptor: where commands are read (0 for standard input).
    ///   - onEnd: called on the reader thread when input ends: nil at end of
    ///     file, else the read error's message.
    public init(descriptor: Int32 = STDIN_FILENO, format: CommandFormat, executor: CommandExecutor, replies: LineWriter,
                onEnd: @escaping @Sendable (String?) -> Void = { _ in }) {
        self.descriptor = descriptor
        self.format = format
        self.executor = executor
        self.replies = replies
        self.onEnd = onEnd
    }

    public func start() {
        NamedThread.start("marquee.stdin") { [self] in readLines() }
    }

    /// True once input has ended.
    public var hasEnded: Bool { ended.load(ordering: .sequentiallyConsistent) }

    /// Answers one line as the reader thread does (for tests and other channels).
    public func handle(_ piece: LineSplitter.Piece) {
        let request: ControlRequest
        do throws(ControlRequest.Failure) {
            guard let parsed = try ControlRequest.parse(piece, format: format) else { return }
            request = parsed
        } catch {
            replies.write(ControlReply(id: error.id, outcome: .failure(error.error)).line(format))
            return
        }
        executor.handle(request) { replies.write($0.line(format)) }
    }

    private func readLines() {
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var failure: String?
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                failure = "cannot read commands: \(String(cString: strerror(errno)))"
                break
            }
            for piece in splitter.feed(buffer[..<count]) { handle(piece) }
        }
        for piece in splitter.finish() { handle(piece) }
        ended.store(true, ordering: .sequentiallyConsistent)
        onEnd(failure)
    }
}
