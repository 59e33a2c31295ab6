import Foundation
import Glibc
import MarqueeControl
import MarqueeTestSupport
import Synchronization
import Testing

/// Issue 21, must-show 1: the control socket of a running `marquee play`
/// (real time, null outputs): two clients answered in order, events only to
/// observers, clients that go mid-stream leave no descriptor or thread
/// behind, and 10,000 random and malformed lines leave the player playing.
@Suite(.serialized) struct ControlSocketTests {
    /// A player with its control socket in a scratch folder, stdin off.
    struct SocketPlayer {
        let process: PlayerProcess
        let socket: String
        let folder: String

        init(extra: String = "") async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("socket-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            socket = "\(folder)/control.sock"
            try "[controls.stdin]\nenabled = false\n[controls.socket]\npath = \"control.sock\"\n\(extra)"
                .write(toFile: "\(folder)/marquee.toml", atomically: true, encoding: .utf8)
            let clip = try await PlayerControlTests.clip()
            process = try PlayerProcess(["play", clip, clip, "--config", "\(folder)/marquee.toml", "--video-out", "null",
                                         "--audio-out", "null", "--loop", "playlist"])
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: socket), Date() < deadline { usleep(20_000) }
        }

        func client() throws -> ControlSocketClient { try ControlSocketClient(path: socket, timeout: 10) }

        func quit() async throws -> Int32? {
            let client = try client()
            try client.send(#"{"command":"quit","id":"bye"}"#)
            _ = try client.readLine()
            return await process.waitForExit()
        }
    }

    static func object(_ line: String?) -> [String: JSONValue] {
        guard let line, let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8)) else { return [:] }
        return object
    }

    /// Two clients at once: each gets its own replies, in the order it sent
    /// them (ids 1...40 interleaved with bad lines, which get error replies
    /// with their ids where they had one); the observer gets the state
    /// event of the other's pause, and the one that does not observe gets
    /// nothing but replies.
    @Test func twoClientsAreAnsweredInOrderAndOnlyObserversGetEvents() async throws {
        let player = try await SocketPlayer()
        let (first, second) = (try player.client(), try player.client())
        try second.send(#"{"command":"observe","args":["state","item"],"id":"o"}"#)
        #expect(Self.object(try second.readLine())["result"] == .string("observing state item"))
        var sent: [JSONValue] = []
        let commands = [#"{"command":"get","args":["time"],"id":ID}"#, #"{"command":"status","id":ID}"#,
                        #"{"command":"volume","args":["0.5"],"id":ID}"#, #"{"command":"get","args":["nope"],"id":ID}"#,
                        #"{"command":"seek","args":["x"],"id":ID}"#]
        for id in 1...40 {
            let line = commands[id % commands.count].replacingOccurrences(of: "ID", with: String(id))
            try first.send(line)
            sent.append(.integer(Int64(id)))
            if id % 7 == 0 { try first.send("{not json") }
        }
        var ids: [JSONValue] = []
        var malformed = 0
        while ids.count < sent.count {
            let reply = Self.object(try first.readLine())
            #expect(reply["event"] == nil, "an event reached a client that does not observe: \(reply)")
            if reply["id"] == .null { malformed += 1 } else if let id = reply["id"] { ids.append(id) }
        }
        #expect(ids == sent, "replies out of order")
        #expect(malformed == 5)
        try first.send(#"{"command":"pause","id":99}"#)
        #expect(Self.object(try first.readLine())["id"] == .integer(99))
        var event: [String: JSONValue] = [:]
        while event["event"] != .string("state") { event = Self.object(try second.readLine()) }
        #expect(event["state"] == .string("paused"))
        // After its pause, the first client's next line is the reply to this, not an event.
        try first.send(#"{"command":"get","args":["state"],"id":100}"#)
        #expect(Self.object(try first.readLine()) == ["id": .integer(100), "result": .string("paused")])
        #expect(try await player.quit() == 0)
        #expect(!FileManager.default.fileExists(atPath: player.socket), "the socket file outlived the player")
    }

    /// 30 clients that observe status events ten times a second and go
    /// away in every way a client can (closing at once, mid-line, after
    /// half a reply, without reading): the player's descriptors and threads
    /// are back where they were, and it still answers.
    @Test func clientsThatGoMidStreamLeaveNoDescriptorOrThreadBehind() async throws {
        let player = try await SocketPlayer()
        let pid = player.process.pid
        // One exchange first, so whatever the socket's first use starts is counted in the baseline.
        let probe = try player.client()
        try probe.send(#"{"command":"status","id":0}"#)
        _ = try probe.readLine()
        usleep(300_000)
        let (fdsBefore, threadsBefore) = (Self.count("/proc/\(pid)/fd"), Self.count("/proc/\(pid)/task"))
        for round in 0..<30 {
            let client = try player.client()
            try client.send(#"{"command":"observe","args":["status","0.1","all"],"id":1}"#)
            switch round % 3 {
            case 0: _ = try client.readLine()
            case 1: try client.send(#"{"command":"get","args":["sta"#)
            default: break
            }
        }
        // The clients are gone (each closed as it left scope); the server notices their hang-ups.
        var fdsAfter = Self.count("/proc/\(pid)/fd")
        let deadline = Date().addingTimeInterval(5)
        while fdsAfter != fdsBefore, Date() < deadline {
            usleep(50_000)
            fdsAfter = Self.count("/proc/\(pid)/fd")
        }
        let threadsAfter = Self.count("/proc/\(pid)/task")
        print("descriptors \(fdsBefore) -> \(fdsAfter), threads \(threadsBefore) -> \(threadsAfter)")
        #expect(fdsAfter == fdsBefore)
        #expect(threadsAfter <= threadsBefore)
        try probe.send(#"{"command":"get","args":["state"],"id":2}"#)
        #expect(Self.object(try probe.readLine()) == ["id": .integer(2), "result": .string("playing")])
        #expect(try await player.quit() == 0)
    }

    /// 10,000 random and malformed lines (no quit, reload or loop among
    /// them) on one connection: every line that earns a reply gets one, and
    /// the player is still playing, its frames moving, and answers at once.
    @Test func tenThousandRandomLinesLeaveThePlayerPlaying() async throws {
        let player = try await SocketPlayer()
        let client = try player.client()
        // Replies are read as they come, as a client does: the server reads no more from one that does not.
        let answered = Mutex(0)
        let reader = Thread {
            while (try? client.readLine()) != nil { answered.withLock { $0 += 1 } }
        }
        reader.start()
        let expected = try await Blocking.run { () -> Int in
            var random = SeededGenerator(seed: 0x50c7e7)
            var splitter = LineSplitter()
            var expected = 0, sent = 0
            while sent < 10_000 {
                var bytes = RandomLines.line(using: &random, format: .json)
                if bytes.count > 600 { bytes.removeLast(bytes.count - 600) }
                var probe = splitter
                guard let replies = PlayerControlTests.repliesDue(probe.feed(bytes + [0x0A]), format: .json),
                      !String(decoding: bytes, as: UTF8.self).contains("observe") else { continue }
                _ = splitter.feed(bytes + [0x0A])
                expected += replies
                try client.send(bytes: bytes + [0x0A])
                sent += 1
            }
            return expected
        }
        let deadline = Date().addingTimeInterval(30)
        while answered.withLock({ $0 }) < expected, Date() < deadline { usleep(20_000) }
        #expect(answered.withLock { $0 } == expected, "\(player.process.stderr.suffix(2000))")
        let checker = try player.client()
        let frames = { () throws -> Int64 in
            try checker.send(#"{"command":"get","args":["stats"],"id":1}"#)
            guard case .object(let stats)? = Self.object(try checker.readLine())["result"],
                  case .integer(let frames)? = stats["framesPresented"] else { return -1 }
            return frames
        }
        try checker.send(#"{"command":"play","id":0}"#)
        _ = try checker.readLine()
        let before = try frames()
        usleep(500_000)
        #expect(try frames() > before, "frames stopped moving after the random lines")
        #expect(try await player.quit() == 0)
    }

    /// The socket file is made 0660; one left by a player that died is
    /// replaced; a second player asked for the same path says why it cannot
    /// have it in one line and plays on; a folder that is not there is one line.
    @Test func theSocketFileIsGuardedAndStaleOnesAreReplaced() async throws {
        let first = try await SocketPlayer()
        var status = stat()
        #expect(stat(first.socket, &status) == 0 && status.st_mode & 0o777 == 0o660, "mode \(String(status.st_mode & 0o777, radix: 8))")
        let clip = try await PlayerControlTests.clip()
        let second = try PlayerProcess(["play", clip, "--config", "\(first.folder)/marquee.toml", "--video-out", "null",
                                        "--audio-out", "null", "--loop", "item"])
        #expect(await second.stderrContains("another process is listening on it"), "\(second.stderr)")
        kill(second.pid, SIGTERM)
        #expect(await second.waitForExit() == 0)
        #expect(second.stderr.split(separator: "\n").count == 1, "\(second.stderr)")
        // A player killed outright leaves its socket file; the next one replaces it.
        kill(first.process.pid, SIGKILL)
        _ = await first.process.waitForExit()
        #expect(FileManager.default.fileExists(atPath: first.socket))
        let third = try PlayerProcess(["play", clip, "--config", "\(first.folder)/marquee.toml", "--video-out", "null",
                                       "--audio-out", "null", "--loop", "item"])
        usleep(1_500_000)
        let client = try ControlSocketClient(path: first.socket, timeout: 10)
        try client.send(#"{"command":"get","args":["state"],"id":1}"#)
        #expect(Self.object(try client.readLine())["result"] == .string("playing"), "\(third.stderr)")
        try client.send(#"{"command":"quit"}"#)
        #expect(await third.waitForExit() == 0)
        #expect(third.stderr.isEmpty, "\(third.stderr)")

        let missing = try await SocketPlayer(extra: "")
        _ = try await missing.quit()
        try "[controls.stdin]\nenabled = false\n[controls.socket]\npath = \"no/such/folder/control.sock\"\n"
            .write(toFile: "\(missing.folder)/marquee.toml", atomically: true, encoding: .utf8)
        let fourth = try PlayerProcess(["play", clip, "--config", "\(missing.folder)/marquee.toml", "--video-out", "null",
                                        "--audio-out", "null"])
        #expect(await fourth.waitForExit(timeout: 20) == 0)
        let lines = fourth.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("no/such/folder/control.sock: bind: No such file or directory"), "\(lines)")
    }

    /// `marquee ctl` against the socket: a reply printed (a string as it is,
    /// anything else as JSON), a refused command on stderr with exit 1, a
    /// typo a usage error with a hint (exit 2) without a round trip, no
    /// player a clear line; `--follow` prints the events of another
    /// client's pause.
    @Test func theCtlClientPrintsRepliesAndFollowsEvents() async throws {
        let player = try await SocketPlayer()
        let socket = ["--socket", player.socket]
        let state = try MarqueeExecutable.run(["ctl"] + socket + ["get", "state"], timeout: 10)
        #expect(state.status == 0 && state.stdout == "playing\n", "\(state)")
        let item = try MarqueeExecutable.run(["ctl"] + socket + ["get", "item"], timeout: 10)
        #expect(item.status == 0 && item.stdout.hasPrefix("{\"index\":1,"), "\(item)")
        let seek = try MarqueeExecutable.run(["ctl"] + socket + ["seek", "-1"], timeout: 10)
        #expect(seek.status == 0 && seek.stdout == "ok\n", "\(seek)")
        let refused = try MarqueeExecutable.run(["ctl"] + socket + ["goto", "9"], timeout: 10)
        #expect(refused.status == 1 && refused.stderr == "marquee: ctl: goto: no item 9; the playlist has 2\n", "\(refused)")
        let typo = try MarqueeExecutable.run(["ctl"] + socket + ["get", "volum"], timeout: 10)
        #expect(typo.status == 2 && typo.stderr.contains("did you mean 'volume'?"), "\(typo)")
        let nobody = try MarqueeExecutable.run(["ctl", "--socket", "\(player.folder)/none.sock", "status"], timeout: 10)
        #expect(nobody.status == 1 && nobody.stderr.contains("none.sock: connect: No such file or directory"), "\(nobody)")

        let follow = try BackgroundCommand(MarqueeExecutable.path, ["ctl"] + socket + ["--follow", "observe", "state"])
        usleep(500_000)
        let pause = try MarqueeExecutable.run(["ctl"] + socket + ["pause"], timeout: 10)
        #expect(pause.status == 0)
        usleep(500_000)
        let printed = follow.stop()
        #expect(printed.hasPrefix("observing state\n"), "\(printed)")
        #expect(printed.contains(#"{"event":"state","state":"paused"}"#), "\(printed)")
        #expect(try await player.quit() == 0)
    }

    static func count(_ folder: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1
    }
}

