import Foundation
import Glibc
import MarqueeControl
import Synchronization
import MarqueeTestSupport
import Testing

/// The stdin channel with a fake player: line handling, and 10,000 random
/// and malformed lines.
@Suite struct StdinChannelTests {
    @Test func linesAreCutAtLFAndCRLFAndLimited() {
        var splitter = LineSplitter(maximumLength: 8)
        #expect(splitter.feed(Array("pause\r\nsee".utf8)) == [.line("pause")])
        #expect(splitter.feed(Array("k +5\n".utf8)) == [.line("seek +5")])
        #expect(splitter.feed(Array("0123456789abc".utf8)) == [.tooLong])
        #expect(splitter.feed(Array("def\nplay\n".utf8)) == [.line("play")])
        #expect(splitter.feed([0x70, 0xC3, 0x28, 0x0A]) == [.notUTF8])
        #expect(splitter.feed(Array("quit".utf8)) == [])
        #expect(splitter.finish() == [.line("quit")])
    }

    /// The reply lines the channel writes, through a scratch file (a pipe
    /// would fill up and block the writer during the fuzz run).
    final class Replies: Sendable {
        let writer: LineWriter
        private let read: Int32

        init() {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("replies-\(UUID().uuidString)").path
            let write = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            read = open(path, O_RDONLY)
            unlink(path)
            writer = LineWriter(descriptor: write, clearsTerminalLine: false)
        }

        /// The lines written since the last call.
        func lines() -> [String] {
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                data.append(contentsOf: buffer[..<count])
            }
            return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    @Test func everyLineGetsOneReplyInTheChannelsFormat() {
        let replies = Replies()
        let player = FakePlayer()
        let executor = CommandExecutor(target: player, quit: {})
        let source = StdinControlSource(descriptor: -1, format: .json, executor: executor, replies: replies.writer)
        source.handle(.line(#"{"command":"pause","id":1}"#))
        source.handle(.line(""))
        source.handle(.line("pause"))
        source.handle(.tooLong)
        source.handle(.notUTF8)
        #expect(replies.lines() == [
            #"{"id":1,"result":"ok"}"#,
            #"{"id":null,"error":"malformed JSON: expected an object like {\"command\": \"pause\", \"id\": 1}"}"#,
            #"{"id":null,"error":"line too long (more than 4096 bytes)"}"#,
            #"{"id":null,"error":"line is not valid UTF-8"}"#,
        ])
        #expect(player.status.state == .paused)
    }

    /// Must-show 2, in-process half: 10,000 random and malformed lines in
    /// both formats: no crash, one reply for each non-blank line, and the
    /// player still answers afterwards.
    @Test(arguments: [CommandFormat.text, .json])
    func tenThousandRandomLinesAreAnsweredAndNothingBreaks(format: CommandFormat) {
        var random = SeededGenerator(seed: 0x57d1)
        let replies = Replies()
        let player = FakePlayer()
        let executor = CommandExecutor(target: player, quit: {})
        let source = StdinControlSource(descriptor: -1, format: format, executor: executor, replies: replies.writer)
        var expected = 0
        var splitter = LineSplitter()
        for _ in 0..<10_000 {
            let bytes = RandomLines.line(using: &random, format: format)
            for piece in splitter.feed(bytes + [0x0A]) {
                if case .line(let text) = piece, text.trimmingCharacters(in: .whitespaces).isEmpty || text.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                } else {
                    expected += 1
                }
                source.handle(piece)
            }
        }
        let lines = replies.lines()
        #expect(lines.count == expected)
        #expect(lines.allSatisfy { format == .text ? $0.hasPrefix("ok") || $0.hasPrefix("error: ") : $0.hasPrefix("{\"id\":") })
        #expect(lines.contains { format == .text ? $0.hasPrefix("error: ") : $0.contains("\"error\":") })
        // Still alive and answering.
        source.handle(.line(format == .text ? "status" : #"{"command":"status","id":"last"}"#))
        #expect(replies.lines().count == 1)
    }
}

/// Lines a fuzzer would send: valid commands, near misses, random bytes,
/// huge numbers, broken JSON.
enum RandomLines {
    static let words = ControlCommand.names + ["paws", "seek", "+", "-", "nan", "inf", "1e308", "-0", "999999999999999999999", "{", "}",
                                               "\"", "\\", "[", "]", "\u{0}", "\u{7F}", "é", "🎬", "goto", "0", "-1", "0.5", "16.0001"]

    static func line<R: RandomNumberGenerator>(using random: inout R, format: CommandFormat) -> [UInt8] {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            return (0..<Int.random(in: 0..<200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }.filter { $0 != 0x0A }
        case 1:
            return Array((0..<Int.random(in: 1..<6, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ").utf8)
        case 2:
            let command = words.randomElement(using: &random)!
            let argument = words.randomElement(using: &random)!
            let id = ["1", "\"a\"", "null", "[1]", "{}", "1.5", "true"].randomElement(using: &random)!
            return Array(#"{"command":"\#(command)","args":["\#(argument)"],"id":\#(id)}"#.utf8)
        case 3:
            var text = Array(#"{"command":"seek","args":["+5"],"id":7}"#.utf8)
            text.removeLast(Int.random(in: 0..<text.count, using: &random))
            return text
        case 4:
            return Array(String(repeating: "[", count: Int.random(in: 1..<3000, using: &random)).utf8)
        default:
            // A valid command now and then, so the player state moves too.
            let valid = ["pause", "play", "toggle", "seek +1", "seek 3", "next", "prev", "goto 2", "rate 1.5", "volume 0.3", "mute", "status"]
            let text = valid.randomElement(using: &random)!
            guard format == .json else { return Array(text.utf8) }
            let parts = text.split(separator: " ")
            let args = parts.dropFirst().map { "\"\($0)\"" }.joined(separator: ",")
            return Array(#"{"command":"\#(parts[0])","args":[\#(args)],"id":1}"#.utf8)
        }
    }
}
